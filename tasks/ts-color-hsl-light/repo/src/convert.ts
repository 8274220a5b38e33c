/**
 * Conversions between RGB, HSL and hex, following CSS Color Module Level 4.
 */
import { clamp, type Hsl, type Rgb } from "./types.ts";

/** RGB to HSL; greys get hue 0 and saturation 0. */
export function rgbToHsl({ r, g, b, a }: Rgb): Hsl {
  const rn = r / 255, gn = g / 255, bn = b / 255;
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return { h: 0, s: 0, l, a };
  const s = d / (1 - Math.abs(2 * l - 1));
  let h: number;
  if (max === rn) h = ((gn - bn) / d) % 6;
  else if (max === gn) h = (bn - rn) / d + 2;
  else h = (rn - gn) / d + 4;
  h *= 60;
  if (h < 0) h += 360;
  return { h, s, l, a };
}

/** HSL to RGB; hue is taken modulo 360, saturation and lightness are clamped. */
export function hslToRgb({ h, s, l, a }: Hsl): Rgb {
  const hue = (((h % 360) + 360) % 360) / 360;
  const sat = clamp(s, 0, 1);
  const light = clamp(l, 0, 1);
  if (sat === 0) return { r: light * 255, g: light * 255, b: light * 255, a };
  const q = light < 0.5 ? light * (1 + sat) : light + sat + light * sat;
  const p = 2 * light - q;
  return {
    r: hueToChannel(p, q, hue + 1 / 3) * 255,
    g: hueToChannel(p, q, hue) * 255,
    b: hueToChannel(p, q, hue - 1 / 3) * 255,
    a,
  };
}

function hueToChannel(p: number, q: number, t: number): number {
  let x = t;
  if (x < 0) x += 1;
  if (x > 1) x -= 1;
  if (x < 1 / 6) return p + (q - p) * 6 * x;
  if (x < 1 / 2) return q;
  if (x < 2 / 3) return p + (q - p) * (2 / 3 - x) * 6;
  return p;
}

/** `#rrggbb`, or `#rrggbbaa` when alpha is below 1. Channels are rounded and clamped. */
export function rgbToHex({ r, g, b, a }: Rgb): string {
  const byte = (v: number) => Math.round(clamp(v, 0, 255)).toString(16).padStart(2, "0");
  const alpha = a < 1 ? byte(a * 255) : "";
  return `#${byte(r)}${byte(g)}${byte(b)}${alpha}`;
}
