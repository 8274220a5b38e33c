/** Currency metadata needed for formatting and conversion. */

export interface Currency {
  code: string;
  /** Number of minor-unit digits (USD 2, JPY 0, KWD 3). */
  exponent: number;
  symbol: string;
  /** Whether the symbol precedes the amount. */
  symbolFirst: boolean;
}

const CURRENCIES: Record<string, Currency> = {
  USD: { code: "USD", exponent: 2, symbol: "$", symbolFirst: true },
  EUR: { code: "EUR", exponent: 2, symbol: "€", symbolFirst: false },
  GBP: { code: "GBP", exponent: 2, symbol: "£", symbolFirst: true },
  JPY: { code: "JPY", exponent: 0, symbol: "¥", symbolFirst: true },
  KWD: { code: "KWD", exponent: 3, symbol: "KD", symbolFirst: false },
};

/** Look a currency up by ISO code (case-insensitive); throws for unknown codes. */
export function currency(code: string): Currency {
  const c = CURRENCIES[code.toUpperCase()];
  if (!c) throw new RangeError(`unknown currency ${code}`);
  return c;
}
