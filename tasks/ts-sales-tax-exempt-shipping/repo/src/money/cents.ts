/** Integer-cent arithmetic. */

/** Rounds to the nearest integer, halves away from zero (2.5 -> 3, -2.5 -> -3). */
export function roundHalfUp(value: number): number {
  const rounded = Math.round(Math.abs(value) + 1e-9);
  return value < 0 ? -rounded : rounded;
}

/** `amount` cents at `basisPoints` (625 = 6.25%), rounded half-up to the cent. */
export function applyRate(amount: number, basisPoints: number): number {
  return roundHalfUp((amount * basisPoints) / 10_000);
}

/** Sums integer cents. */
export function sum(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}
