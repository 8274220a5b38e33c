import assert from "node:assert/strict";
import { convertUnit, UnitError } from "../src/units.ts";

Deno.test("length conversions", () => {
  assert.equal(convertUnit(1, "mi", "km", { digits: 3 }), 1.609);
  assert.equal(convertUnit(12, "in", "ft", { digits: 6 }), 1);
});

Deno.test("mass conversions round with the requested mode", () => {
  assert.equal(convertUnit(1, "lb", "g", { digits: 0, mode: "down" }), 453);
  assert.equal(convertUnit(16, "oz", "lb", { digits: 4 }), 1);
});

Deno.test("cross-dimension conversions are errors", () => {
  assert.throws(() => convertUnit(1, "kg", "l"), UnitError);
  assert.throws(() => convertUnit(1, "kg", "stone"), UnitError);
});
