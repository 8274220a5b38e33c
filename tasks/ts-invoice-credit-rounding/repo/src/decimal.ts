/**
 * Numeric helpers for money arithmetic.
 *
 * House rule: every rounding in billing is "half away from zero", so an
 * amount and its negation always round to mirror images (2.5 -> 3, -2.5 -> -3).
 */

/**
 * Round `value` to `places` decimal places, half away from zero.
 * A tiny relative nudge absorbs binary representation error (1.005 -> 1.01).
 */
export function roundHalfAway(value: number, places = 0): number {
  const factor = 10 ** places;
  const scaled = value * factor;
  const nudged = scaled + Math.abs(scaled) * Number.EPSILON * 8;
  return Math.round(nudged) / factor;
}

/** Sum integer amounts, refusing non-integers (minor units must stay exact). */
export function sumMinor(amounts: number[]): number {
  let total = 0;
  for (const a of amounts) {
    if (!Number.isInteger(a)) throw new RangeError(`not an integer amount: ${a}`);
    total += a;
  }
  return total;
}

/** Apply a percentage to an amount and round to whole minor units. */
export function percentage(amount: number, percent: number): number {
  return roundHalfAway((amount * percent) / 100);
}
