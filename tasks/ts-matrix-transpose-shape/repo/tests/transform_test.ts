import assert from "node:assert/strict";
import { applyTo, compose, rotate, scaling, translate } from "../src/mod.ts";

const round = ([x, y]: [number, number]) => [Math.round(x * 1e9) / 1e9, Math.round(y * 1e9) / 1e9];

Deno.test("translate then scale", () => {
  assert.deepEqual(applyTo(compose(translate(1, 2), scaling(3)), [1, 1]), [6, 9]);
});

Deno.test("rotation by a quarter turn", () => {
  assert.deepEqual(round(applyTo(rotate(Math.PI / 2), [1, 0])), [0, 1]);
});
