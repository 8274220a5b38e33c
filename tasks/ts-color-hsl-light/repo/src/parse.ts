/**
 * Parsing CSS color strings: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`/`rgba()` and
 * `hsl()`/`hsla()` with comma or space syntax.
 */
import { hslToRgb } from "./convert.ts";
import type { Rgb } from "./types.ts";

/** Thrown for strings that are not a supported color. */
export class ColorParseError extends Error {
  constructor(readonly input: string) {
    super(`not a color: "${input}"`);
    this.name = "ColorParseError";
  }
}

/** Parses a CSS color into RGB. */
export function parseColor(input: string): Rgb {
  const text = input.trim().toLowerCase();
  if (text.startsWith("#")) return parseHex(text, input);
  const fn = /^(rgba?|hsla?)\((.*)\)$/.exec(text);
  if (!fn) throw new ColorParseError(input);
  const parts = fn[2].split(/[\s,/]+/).filter(Boolean);
  if (parts.length !== 3 && parts.length !== 4) throw new ColorParseError(input);
  const alpha = parts.length === 4 ? fraction(parts[3], input) : 1;
  if (fn[1].startsWith("rgb")) {
    const [r, g, b] = parts.slice(0, 3).map((p) => p.endsWith("%") ? fraction(p, input) * 255 : number(p, input));
    return { r, g, b, a: alpha };
  }
  const h = number(parts[0].replace(/deg$/, ""), input);
  return hslToRgb({ h, s: fraction(parts[1], input), l: fraction(parts[2], input), a: alpha });
}

function parseHex(text: string, input: string): Rgb {
  const digits = text.slice(1);
  if (!/^[0-9a-f]+$/.test(digits)) throw new ColorParseError(input);
  const expanded = digits.length <= 4 ? [...digits].map((c) => c + c).join("") : digits;
  if (expanded.length !== 6 && expanded.length !== 8) throw new ColorParseError(input);
  const byte = (i: number) => parseInt(expanded.slice(i, i + 2), 16);
  return { r: byte(0), g: byte(2), b: byte(4), a: expanded.length === 8 ? byte(6) / 255 : 1 };
}

function number(text: string, input: string): number {
  const value = Number(text);
  if (text === "" || Number.isNaN(value)) throw new ColorParseError(input);
  return value;
}

/** `50%` is 0.5; a bare number is taken as already being a fraction. */
function fraction(text: string, input: string): number {
  return text.endsWith("%") ? number(text.slice(0, -1), input) / 100 : number(text, input);
}
