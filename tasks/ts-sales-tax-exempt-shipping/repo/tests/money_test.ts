import assert from "node:assert/strict";
import { applyRate, formatCents, formatRate, roundHalfUp } from "../src/money/mod.ts";

Deno.test("roundHalfUp rounds halves away from zero", () => {
  assert.equal(roundHalfUp(2.5), 3);
  assert.equal(roundHalfUp(-2.5), -3);
  assert.equal(roundHalfUp(2.4999), 2);
});

Deno.test("applyRate in basis points", () => {
  assert.equal(applyRate(1000, 625), 63);
  assert.equal(applyRate(199, 500), 10);
});

Deno.test("formatting", () => {
  assert.equal(formatCents(123456), "$1,234.56");
  assert.equal(formatRate(625), "6.25%");
  assert.equal(formatRate(500), "5%");
});
