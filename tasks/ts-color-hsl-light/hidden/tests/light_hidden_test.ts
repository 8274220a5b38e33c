import assert from "node:assert/strict";
import { hslToRgb, lighten, parseColor, rgbToHex, rgbToHsl } from "../src/mod.ts";

const hex = (css: string) => rgbToHex(parseColor(css));

Deno.test("light hsl() colors convert to the right hex", () => {
  assert.equal(hex("hsl(0, 100%, 75%)"), "#ff8080");
});

Deno.test("pastel blue converts to the right hex", () => {
  assert.equal(hex("hsl(210, 60%, 80%)"), "#adcceb");
});

Deno.test("white stays white", () => {
  assert.equal(rgbToHex(hslToRgb({ h: 30, s: 1, l: 1, a: 1 })), "#ffffff");
});

Deno.test("lighten past half lightness keeps the hue", () => {
  assert.equal(rgbToHex(lighten(parseColor("#336699"), 0.3)), "#8cb2d9");
});

Deno.test("hsl round-trips a light color", () => {
  const { h, s, l } = rgbToHsl(parseColor("#ffc0cb"));
  assert.equal(rgbToHex(hslToRgb({ h, s, l, a: 1 })), "#ffc0cb");
});

Deno.test("exactly half lightness is unchanged", () => {
  assert.equal(hex("hsl(60, 100%, 50%)"), "#ffff00");
});
