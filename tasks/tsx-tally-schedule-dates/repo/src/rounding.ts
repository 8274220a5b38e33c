/**
 * Integer division with an explicit rounding mode. Every conversion and allocation in the ledger
 * ends here, so amounts never go through binary floating point.
 */

/** How a quotient that falls between two integers is rounded. */
export type RoundingMode = "half_even" | "half_up" | "down";

/** `n / d` rounded to an integer with `mode` (`d` must not be 0). */
export function divRound(n: bigint, d: bigint, mode: RoundingMode = "half_even"): bigint {
  if (d === 0n) throw new RangeError("Division by zero");
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const negative = n < 0n;
  const abs = negative ? -n : n;
  let q = abs / d;
  const r = abs % d;
  if (mode !== "down" && r !== 0n) {
    const twice = r * 2n;
    if (twice > d) q += 1n;
    else if (twice === d) {
      if (mode === "half_up" || q % 2n === 1n) q += 1n;
    }
  }
  return negative ? -q : q;
}

/** 10 to the power `exp` as a bigint. */
export function pow10(exp: number): bigint {
  return 10n ** BigInt(exp);
}
