/**
 * Exchange rates by date. A rate says how many units of the quote currency one unit of the base
 * currency buys on a day; it stays in force until the next rate of the same pair. Rates are exact
 * fractions so converting back and forth never drifts.
 */
import { compareDates } from "./dates.ts";
import { LedgerError } from "./errors.ts";

/** `num / den` units of quote per unit of base. */
export interface Rate {
  num: bigint;
  den: bigint;
}

interface DatedRate {
  date: string;
  rate: Rate;
}

/** Parse `"1.0834"` as an exact rate; it must be positive. */
export function parseRate(text: string): Rate {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new SyntaxError(`Not a rate: "${text}"`);
  const fraction = match[2] ?? "";
  const rate = { num: BigInt(match[1] + fraction), den: 10n ** BigInt(fraction.length) };
  if (rate.num === 0n) throw new RangeError(`A rate must be positive: "${text}"`);
  return reduce(rate);
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function reduce(rate: Rate): Rate {
  const g = gcd(rate.num, rate.den);
  return { num: rate.num / g, den: rate.den / g };
}

/** `1 / rate`. */
export function invert(rate: Rate): Rate {
  return { num: rate.den, den: rate.num };
}

/** `a * b`, reduced. */
export function multiply(a: Rate, b: Rate): Rate {
  return reduce({ num: a.num * b.num, den: a.den * b.den });
}

/** `rate` as a decimal number, for display only. */
export function rateToNumber(rate: Rate): number {
  return Number(rate.num) / Number(rate.den);
}

/** Every rate the ledger knows, per currency pair, in date order. */
export class RateTable {
  readonly #series = new Map<string, DatedRate[]>();

  /** Record that on `date` one `base` buys `rate` `quote`; a later call for the same day wins. */
  add(date: string, base: string, quote: string, rate: Rate | string): void {
    if (base === quote) throw new RangeError(`A rate needs two currencies, got ${base} twice`);
    const value = typeof rate === "string" ? parseRate(rate) : reduce(rate);
    const key = `${base}/${quote}`;
    const series = this.#series.get(key) ?? [];
    const at = series.findIndex((r) => compareDates(r.date, date) >= 0);
    if (at < 0) series.push({ date, rate: value });
    else if (series[at].date === date) series[at] = { date, rate: value };
    else series.splice(at, 0, { date, rate: value });
    this.#series.set(key, series);
  }

  /** The rate of `base`/`quote` in force on `date` as recorded (no inversion), or null. */
  direct(base: string, quote: string, date: string): Rate | null {
    const series = this.#series.get(`${base}/${quote}`);
    if (!series) return null;
    let lo = 0;
    let hi = series.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareDates(series[mid].date, date) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? null : series[lo - 1].rate;
  }

  /** `from`/`to` from a recorded pair in either direction, or null. */
  #leg(from: string, to: string, date: string): Rate | null {
    const direct = this.direct(from, to, date);
    if (direct) return direct;
    const reverse = this.direct(to, from, date);
    return reverse ? invert(reverse) : null;
  }

  /**
   * The rate to convert `from` into `to` on `date`: a recorded pair, its inverse, or a cross rate
   * through one other currency. Throws `no_rate` when none is in force.
   */
  rateOn(from: string, to: string, date: string): Rate {
    if (from === to) return { num: 1n, den: 1n };
    const leg = this.#leg(from, to, date);
    if (leg) return leg;
    for (const pivot of this.currencies()) {
      if (pivot === from || pivot === to) continue;
      const first = this.#leg(from, pivot, date);
      const second = first && this.#leg(pivot, to, date);
      if (first && second) return multiply(first, second);
    }
    throw new LedgerError("no_rate", `No ${from}/${to} rate in force on ${date}`);
  }

  /** Every currency that appears in a recorded pair, sorted. */
  currencies(): string[] {
    const all = new Set<string>();
    for (const key of this.#series.keys()) key.split("/").forEach((c) => all.add(c));
    return [...all].sort();
  }
}
