/** Currencies, exchange rates and money conversion. */
import { type RoundingMode, roundTo } from "./rounding.ts";

/** ISO 4217 data we need: the number of minor-unit digits. */
export interface CurrencyInfo {
  code: string;
  minorUnits: number;
  symbol: string;
}

export const CURRENCIES: Record<string, CurrencyInfo> = {
  USD: { code: "USD", minorUnits: 2, symbol: "$" },
  EUR: { code: "EUR", minorUnits: 2, symbol: "€" },
  GBP: { code: "GBP", minorUnits: 2, symbol: "£" },
  JPY: { code: "JPY", minorUnits: 0, symbol: "¥" },
  KRW: { code: "KRW", minorUnits: 0, symbol: "₩" },
  BHD: { code: "BHD", minorUnits: 3, symbol: "BD" },
};

/** Thrown for currencies or rates we do not know. */
export class CurrencyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CurrencyError";
  }
}

/** Exchange rates: units of each currency per one unit of `base`. */
export interface RateTable {
  base: string;
  rates: Record<string, number>;
}

export function currency(code: string): CurrencyInfo {
  const info = CURRENCIES[code];
  if (!info) throw new CurrencyError(`unknown currency ${code}`);
  return info;
}

/** Number of decimals amounts in `code` are rounded to. */
export function decimalsOf(code: string): number {
  return currency(code).minorUnits || 2;
}

/** Rounds `amount` to the currency's minor unit. */
export function roundMoney(amount: number, code: string, mode: RoundingMode = "half-even"): number {
  return roundTo(amount, decimalsOf(code), mode);
}

function rate(table: RateTable, code: string): number {
  if (code === table.base) return 1;
  const r = table.rates[code];
  if (r === undefined) throw new CurrencyError(`no rate for ${code} in the ${table.base} table`);
  return r;
}

/**
 * Converts `amount` from one currency to another through the table's base, rounding once,
 * at the end, to the target currency's minor unit.
 */
export function convertMoney(
  amount: number,
  from: string,
  to: string,
  table: RateTable,
  mode: RoundingMode = "half-even",
): number {
  currency(from);
  return roundMoney((amount / rate(table, from)) * rate(table, to), to, mode);
}

/** Formats an amount with its symbol and exactly its minor-unit digits ("¥1,235", "$3.10"). */
export function formatMoney(amount: number, code: string): string {
  const info = currency(code);
  const digits = decimalsOf(code);
  const text = Math.abs(amount).toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return `${amount < 0 ? "-" : ""}${info.symbol}${text}`;
}
