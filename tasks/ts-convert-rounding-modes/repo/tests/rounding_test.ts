import assert from "node:assert/strict";
import { roundTo } from "../src/rounding.ts";

Deno.test("half-up rounds halves away from zero", () => {
  assert.equal(roundTo(2.5, 0, "half-up"), 3);
  assert.equal(roundTo(-2.5, 0, "half-up"), -3);
  assert.equal(roundTo(1.005, 2, "half-up"), 1.01);
});

Deno.test("half-down rounds halves toward zero", () => {
  assert.equal(roundTo(2.5, 0, "half-down"), 2);
  assert.equal(roundTo(-2.55, 1, "half-down"), -2.5);
  assert.equal(roundTo(2.51, 0, "half-down"), 3);
});

Deno.test("half-even on positive values", () => {
  assert.equal(roundTo(2.5, 0, "half-even"), 2);
  assert.equal(roundTo(3.5, 0, "half-even"), 4);
  assert.equal(roundTo(0.125, 2, "half-even"), 0.12);
});

Deno.test("half-even on negative values", () => {
  assert.equal(roundTo(-2.5, 0, "half-even"), -2);
  assert.equal(roundTo(-3.5, 0, "half-even"), -4);
  assert.equal(roundTo(-0.125, 2, "half-even"), -0.12);
});

Deno.test("directed modes", () => {
  assert.equal(roundTo(-1.21, 1, "up"), -1.3);
  assert.equal(roundTo(-1.29, 1, "down"), -1.2);
  assert.equal(roundTo(-1.21, 1, "ceiling"), -1.2);
  assert.equal(roundTo(-1.21, 1, "floor"), -1.3);
});
