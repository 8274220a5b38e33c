import assert from "node:assert/strict";
import { divRound } from "../src/mod.ts";

Deno.test("divRound rounds half to even by default", () => {
  assert.equal(divRound(5n, 2n), 2n);
  assert.equal(divRound(7n, 2n), 4n);
  assert.equal(divRound(-5n, 2n), -2n);
  assert.equal(divRound(10n, 3n), 3n);
});

Deno.test("divRound supports half up and down", () => {
  assert.equal(divRound(5n, 2n, "half_up"), 3n);
  assert.equal(divRound(-5n, 2n, "half_up"), -3n);
  assert.equal(divRound(19n, 10n, "down"), 1n);
  assert.equal(divRound(-19n, 10n, "down"), -1n);
});

Deno.test("divRound handles a negative divisor", () => {
  assert.equal(divRound(7n, -2n), -4n);
  assert.throws(() => divRound(1n, 0n), RangeError);
});
