/** Conversion between currencies with different minor-unit exponents. */
import { currency } from "./currency.ts";
import { roundHalfAway } from "./decimal.ts";

/**
 * Convert `minor` units of `from` into minor units of `to` at `rate`
 * (units of `to` per unit of `from`), rounding half away from zero.
 */
export function convert(minor: number, from: string, to: string, rate: number): number {
  if (!(rate > 0)) throw new RangeError(`rate must be positive: ${rate}`);
  const major = minor / 10 ** currency(from).exponent;
  return roundHalfAway(major * rate * 10 ** currency(to).exponent);
}
