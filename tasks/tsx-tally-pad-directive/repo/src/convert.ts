/**
 * Currency conversion with the rates of a {@linkcode RateTable}: exact fraction arithmetic, one
 * rounding to the target currency's minor unit at the end.
 */
import type { Balance } from "./balance.ts";
import { decimalsOf } from "./currency.ts";
import { type Money, money } from "./money.ts";
import type { RateTable } from "./rates.ts";
import { divRound, pow10, type RoundingMode } from "./rounding.ts";

/** Options of {@linkcode convert}. */
export interface ConvertOptions {
  rounding?: RoundingMode;
}

/** `m` in `to` at the rate in force on `date`. */
export function convert(
  m: Money,
  to: string,
  date: string,
  rates: RateTable,
  options: ConvertOptions = {},
): Money {
  if (m.currency === to) return m;
  const rate = rates.rateOn(m.currency, to, date);
  const n = BigInt(m.amount) * rate.num * pow10(decimalsOf(to));
  const d = rate.den * pow10(decimalsOf(m.currency));
  return money(Number(divRound(n, d, options.rounding)), to);
}

/**
 * A multi-currency balance as one amount of `to`. Each currency is converted and rounded on its
 * own before they are added, the way a statement in `to` would show them line by line.
 */
export function convertBalance(
  balance: Balance,
  to: string,
  date: string,
  rates: RateTable,
  options: ConvertOptions = {},
): Money {
  let total = 0;
  for (const m of balance.toMoney()) total += convert(m, to, date, rates, options).amount;
  return money(total, to);
}
