/**
 * Money helpers. All amounts inside the cart are integer cents to avoid
 * floating point drift; these helpers convert at the edges.
 */

/** Convert a decimal amount (e.g. 12.5) to integer cents (1250). */
export function toCents(amount: number): number {
  if (!Number.isFinite(amount)) {
    throw new RangeError(`not a finite amount: ${amount}`);
  }
  return Math.round(amount * 100);
}

/** Format integer cents as a dollar string, e.g. 123456 -> "$1,234.56". */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const frac = (abs % 100).toString().padStart(2, "0");
  return `${sign}$${whole}.${frac}`;
}

/** Percentage of an amount in cents, rounded to the nearest cent. */
export function percentOf(cents: number, percent: number): number {
  return Math.round((cents * percent) / 100);
}
