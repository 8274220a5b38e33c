/** Descriptive statistics. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("mean of no values");
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Sample variance (n - 1 in the denominator). */
export function variance(values: readonly number[]): number {
  if (values.length < 2) throw new RangeError("variance needs at least two values");
  const m = mean(values);
  return values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1);
}
