import assert from "node:assert/strict";
import { contrastRatio, darken, mix, parseColor, rgbToHex } from "../src/mod.ts";

Deno.test("darken lowers lightness", () => {
  assert.equal(rgbToHex(darken(parseColor("#336699"), 0.1)), "#264c73");
});

Deno.test("mix blends halfway by default", () => {
  assert.equal(rgbToHex(mix(parseColor("#000000"), parseColor("#ffffff"))), "#808080");
});

Deno.test("contrastRatio of black on white is 21", () => {
  assert.equal(contrastRatio(parseColor("#000"), parseColor("#fff")), 21);
});
