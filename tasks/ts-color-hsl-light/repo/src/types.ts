/**
 * Color value types. Channels are stored unrounded so conversions can be chained without drift;
 * rounding happens only when formatting.
 */

/** Red, green and blue in 0..255, alpha in 0..1. */
export interface Rgb {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** Hue in degrees 0..360, saturation and lightness in 0..1, alpha in 0..1. */
export interface Hsl {
  h: number;
  s: number;
  l: number;
  a: number;
}

/** Clamps `value` into `[min, max]`. */
export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
