/**
 * Decimal rounding with explicit modes. Values are shifted by decimal exponent (not by
 * multiplying with 10^n) so that 1.005 rounds like the decimal it was written as.
 */

/**
 * How to round:
 * - "half-up": nearest, halves away from zero (2.5 -> 3, -2.5 -> -3)
 * - "half-down": nearest, halves toward zero (2.5 -> 2, -2.5 -> -2)
 * - "half-even": nearest, halves to the even neighbour (2.5 -> 2, 3.5 -> 4, -2.5 -> -2)
 * - "up" / "down": away from / toward zero
 * - "ceiling" / "floor": toward +infinity / -infinity
 */
export type RoundingMode = "half-up" | "half-down" | "half-even" | "up" | "down" | "ceiling" | "floor";

/** `value` times 10^digits, computed on the decimal representation. */
export function shift(value: number, digits: number): number {
  const [mantissa, exponent = "0"] = String(value).split("e");
  return Number(`${mantissa}e${Number(exponent) + digits}`);
}

/** Rounds `value` to `digits` decimal places using `mode`. */
export function roundTo(value: number, digits: number, mode: RoundingMode = "half-up"): number {
  const scaled = shift(value, digits);
  return shift(roundInteger(scaled, mode), -digits) + 0;
}

function roundInteger(x: number, mode: RoundingMode): number {
  const sign = x < 0 ? -1 : 1;
  const abs = Math.abs(x);
  const whole = Math.floor(abs);
  const fraction = abs - whole;
  switch (mode) {
    case "ceiling":
      return Math.ceil(x);
    case "floor":
      return Math.floor(x);
    case "down":
      return sign * whole;
    case "up":
      return sign * (fraction > 0 ? whole + 1 : whole);
    case "half-up":
      return sign * (fraction >= 0.5 ? whole + 1 : whole);
    case "half-down":
      return sign * (fraction > 0.5 ? whole + 1 : whole);
    case "half-even": {
      const below = Math.floor(x);
      const diff = x - below;
      return diff > 0.5 || (diff === 0.5 && below % 2 === 1) ? below + 1 : below;
    }
  }
}
