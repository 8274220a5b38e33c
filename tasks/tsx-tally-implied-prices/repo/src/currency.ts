/**
 * The currencies the ledger knows and how many minor units each has (ISO 4217 exponent):
 * USD has cents (2), JPY has none (0), KWD has fils (3).
 */
import { LedgerError } from "./errors.ts";

/** What the ledger needs to know about a currency. */
export interface CurrencyInfo {
  code: string;
  /** Digits after the decimal point; an amount is stored as an integer of 10^-decimals units. */
  decimals: number;
  symbol: string;
}

const registry = new Map<string, CurrencyInfo>();

/** Add (or replace) a currency; commodities such as shares can be registered the same way. */
export function registerCurrency(info: CurrencyInfo): void {
  if (!/^[A-Z][A-Z0-9]{1,9}$/.test(info.code)) {
    throw new LedgerError("unknown_currency", `Invalid currency code "${info.code}"`);
  }
  if (!Number.isInteger(info.decimals) || info.decimals < 0 || info.decimals > 8) {
    throw new LedgerError("unknown_currency", `Invalid decimals for "${info.code}": ${info.decimals}`);
  }
  registry.set(info.code, { ...info });
}

for (
  const info of [
    { code: "USD", decimals: 2, symbol: "$" },
    { code: "EUR", decimals: 2, symbol: "€" },
    { code: "GBP", decimals: 2, symbol: "£" },
    { code: "CHF", decimals: 2, symbol: "CHF" },
    { code: "JPY", decimals: 0, symbol: "¥" },
    { code: "KWD", decimals: 3, symbol: "KD" },
  ]
) registerCurrency(info);

/** The currency registered as `code`; throws `unknown_currency` otherwise. */
export function currencyInfo(code: string): CurrencyInfo {
  const info = registry.get(code);
  if (!info) throw new LedgerError("unknown_currency", `Unknown currency "${code}"`);
  return info;
}

/** Number of decimals of `code`. */
export function decimalsOf(code: string): number {
  return currencyInfo(code).decimals;
}

/** True when `code` is registered. */
export function isCurrency(code: string): boolean {
  return registry.has(code);
}
