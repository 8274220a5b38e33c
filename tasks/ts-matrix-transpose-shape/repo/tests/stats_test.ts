import assert from "node:assert/strict";
import { evaluatePolynomial, mean, variance } from "../src/mod.ts";

Deno.test("mean and variance", () => {
  assert.equal(mean([1, 2, 3, 4]), 2.5);
  assert.equal(variance([2, 4, 4, 4, 5, 5, 7, 9]), 32 / 7);
});

Deno.test("evaluatePolynomial uses the constant term first", () => {
  assert.equal(evaluatePolynomial([1, 2, 3], 2), 17);
});
