/** Formatting of minor-unit amounts for invoices and statements. */
import { currency } from "./currency.ts";

export interface FormatOptions {
  /** How negatives are shown: "-$1.00" or "($1.00)". Default "minus". */
  negative?: "minus" | "parens";
  thousands?: string;
  decimal?: string;
}

/** Format an integer amount of minor units, e.g. (-123456, "USD") -> "-$1,234.56". */
export function formatMoney(minor: number, code: string, options: FormatOptions = {}): string {
  if (!Number.isInteger(minor)) throw new RangeError(`minor units must be integers: ${minor}`);
  const { negative = "minus", thousands = ",", decimal = "." } = options;
  const cur = currency(code);
  const abs = Math.abs(minor);
  const unit = 10 ** cur.exponent;
  const whole = Math.floor(abs / unit).toString().replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  const frac = cur.exponent > 0 ? decimal + (abs % unit).toString().padStart(cur.exponent, "0") : "";
  const body = cur.symbolFirst ? `${cur.symbol}${whole}${frac}` : `${whole}${frac} ${cur.symbol}`;
  if (minor >= 0) return body;
  return negative === "parens" ? `(${body})` : `-${body}`;
}
