/**
 * Money as an integer number of minor units of one currency. Amounts are parsed from and
 * formatted to decimal text here; nothing else in the ledger does decimal arithmetic on strings.
 */
import { decimalsOf } from "./currency.ts";
import { LedgerError } from "./errors.ts";

/** An amount of one currency, in minor units (cents for USD, yen for JPY). */
export interface Money {
  amount: number;
  currency: string;
}

/** Money of `amount` minor units of `currency` (checked to be a known currency; never -0). */
export function money(amount: number, currency: string): Money {
  decimalsOf(currency);
  if (!Number.isSafeInteger(amount)) {
    throw new RangeError(`Amount must be a whole number of minor units: ${amount}`);
  }
  return { amount: amount || 0, currency };
}

/**
 * Parse decimal text such as `"-1,234.5"` into minor units with `decimals` digits after the
 * point. More digits than the currency has is an error, never a silent rounding.
 */
export function parseDecimal(text: string, decimals: number): number {
  const cleaned = text.trim().replaceAll(",", "");
  const match = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) throw new SyntaxError(`Not a decimal number: "${text}"`);
  const [, sign, whole, fraction = ""] = match;
  if (fraction.length > decimals) {
    throw new SyntaxError(`Too many decimals in "${text}" (at most ${decimals})`);
  }
  const minor = Number(whole + fraction.padEnd(decimals, "0"));
  if (!Number.isSafeInteger(minor)) throw new RangeError(`Amount too large: "${text}"`);
  return sign === "-" ? -minor : minor;
}

/** Minor units as decimal text with `decimals` digits after the point, e.g. `-1234.50`. */
export function formatDecimal(minor: number, decimals: number, options: { grouping?: boolean } = {}): string {
  const negative = minor < 0;
  const digits = String(Math.abs(minor)).padStart(decimals + 1, "0");
  let whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals);
  if (options.grouping) whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return (negative ? "-" : "") + whole + (decimals > 0 ? "." + fraction : "");
}

/** Parse `"12.50"` as money of `currency`. */
export function parseMoney(text: string, currency: string): Money {
  return money(parseDecimal(text, decimalsOf(currency)), currency);
}

/** `12.50 USD`, with thousands separators when `grouping` is set. */
export function formatMoney(m: Money, options: { grouping?: boolean } = {}): string {
  return `${formatDecimal(m.amount, decimalsOf(m.currency), options)} ${m.currency}`;
}

function sameCurrency(a: Money, b: Money): void {
  if (a.currency !== b.currency) {
    throw new LedgerError("unknown_currency", `Cannot combine ${a.currency} with ${b.currency}`);
  }
}

/** `a + b`; both must be the same currency. */
export function addMoney(a: Money, b: Money): Money {
  sameCurrency(a, b);
  return money(a.amount + b.amount, a.currency);
}

/** `-m`. */
export function negate(m: Money): Money {
  return { amount: -m.amount || 0, currency: m.currency };
}

/**
 * Split `m` in proportion to `ratios` so the parts add up to exactly `m`: each part is rounded
 * down and the left-over minor units go to the parts with the largest remainders (ties to the
 * earlier part).
 */
export function allocate(m: Money, ratios: number[]): Money[] {
  if (ratios.length === 0 || ratios.some((r) => r < 0 || !Number.isFinite(r))) {
    throw new RangeError("Ratios must be a non-empty list of non-negative numbers");
  }
  const total = ratios.reduce((a, b) => a + b, 0);
  if (total === 0) throw new RangeError("Ratios must not all be zero");
  const sign = m.amount < 0 ? -1 : 1;
  const abs = Math.abs(m.amount);
  const parts = ratios.map((r) => Math.floor((abs * r) / total));
  const remainders = ratios.map((r, i) => ({ i, rest: (abs * r) / total - parts[i] }));
  let left = abs - parts.reduce((a, b) => a + b, 0);
  remainders.sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of remainders) {
    if (left === 0) break;
    parts[i] += 1;
    left -= 1;
  }
  return parts.map((p) => money(sign * p, m.currency));
}
