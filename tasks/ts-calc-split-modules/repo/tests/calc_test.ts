import assert from "node:assert/strict";
import { calculate, CalcError } from "../src/calc.ts";

Deno.test("precedence and associativity", () => {
  assert.equal(calculate("1 + 2 * 3"), 7);
  assert.equal(calculate("(1 + 2) * 3"), 9);
  assert.equal(calculate("2 ^ 3 ^ 2"), 512);
  assert.equal(calculate("-2 ^ 2"), -4);
  assert.equal(calculate("10 - 4 - 3"), 3);
});

Deno.test("numbers, variables and constants", () => {
  assert.equal(calculate("1.5e2 + .5"), 150.5);
  assert.equal(calculate("2 * (x + 1) ^ 2", { x: 2 }), 18);
  assert.equal(calculate("round(pi * 100)"), 314);
});

Deno.test("functions", () => {
  assert.equal(calculate("max(1, 7, 3) + min(4, 2)"), 9);
  assert.equal(calculate("sqrt(16) + pow(2, 10)"), 1028);
});

Deno.test("errors carry positions", () => {
  assert.throws(() => calculate("1 + $"), (e: unknown) => e instanceof CalcError && e.pos === 4);
  assert.throws(() => calculate("(1 + 2"), (e: unknown) => e instanceof CalcError && e.pos === 6);
  assert.throws(() => calculate("1 / 0"), /division by zero/);
  assert.throws(() => calculate("y + 1"), /unknown variable y/);
});
