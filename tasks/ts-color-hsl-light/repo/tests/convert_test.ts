import assert from "node:assert/strict";
import { hslToRgb, parseColor, rgbToHex, rgbToHsl } from "../src/mod.ts";

const hex = (css: string) => rgbToHex(parseColor(css));

Deno.test("parseColor reads hex forms", () => {
  assert.deepEqual(parseColor("#1e90ff"), { r: 30, g: 144, b: 255, a: 1 });
  assert.equal(hex("#abc"), "#aabbcc");
  assert.equal(hex("#11223380"), "#11223380");
});

Deno.test("parseColor reads rgb() in both syntaxes", () => {
  assert.equal(hex("rgb(255, 128, 0)"), "#ff8000");
  assert.equal(hex("rgb(100% 0% 0% / 50%)"), "#ff000080");
});

Deno.test("parseColor reads dark and mid hsl() colors", () => {
  assert.equal(hex("hsl(0, 100%, 50%)"), "#ff0000");
  assert.equal(hex("hsl(120deg 100% 25%)"), "#008000");
  assert.equal(hex("hsl(240, 50%, 40%)"), "#333399");
});

Deno.test("parseColor rejects junk", () => {
  assert.throws(() => parseColor("#12"), /not a color/);
  assert.throws(() => parseColor("rgb(1, 2)"), /not a color/);
});

Deno.test("rgbToHsl finds hue, saturation and lightness", () => {
  const { h, s, l } = rgbToHsl(parseColor("#336699"));
  assert.equal(Math.round(h), 210);
  assert.equal(Math.round(s * 100), 50);
  assert.equal(Math.round(l * 100), 40);
});

Deno.test("greys have no saturation", () => {
  assert.deepEqual(hslToRgb({ h: 200, s: 0, l: 0.5, a: 1 }), { r: 127.5, g: 127.5, b: 127.5, a: 1 });
});
