/**
 * Color manipulation helpers used by the theme generator.
 */
import { hslToRgb, rgbToHsl } from "./convert.ts";
import { clamp, type Rgb } from "./types.ts";

/** Raises HSL lightness by `amount` (0..1, absolute), like Sass `lighten()`. */
export function lighten(color: Rgb, amount: number): Rgb {
  const hsl = rgbToHsl(color);
  return hslToRgb({ ...hsl, l: clamp(hsl.l + amount, 0, 1) });
}

/** Lowers HSL lightness by `amount` (0..1, absolute), like Sass `darken()`. */
export function darken(color: Rgb, amount: number): Rgb {
  return lighten(color, -amount);
}

/** Linear mix in RGB space; `weight` is the share of `b`. */
export function mix(a: Rgb, b: Rgb, weight = 0.5): Rgb {
  const w = clamp(weight, 0, 1);
  const blend = (x: number, y: number) => x + (y - x) * w;
  return { r: blend(a.r, b.r), g: blend(a.g, b.g), b: blend(a.b, b.b), a: blend(a.a, b.a) };
}

/** WCAG 2.1 relative luminance. */
export function luminance({ r, g, b }: Rgb): number {
  const linear = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG contrast ratio between two colors, from 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}
