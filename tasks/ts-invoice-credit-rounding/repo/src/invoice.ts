/** Invoice and credit-note totals, computed per line in minor units. */
import { percentage, sumMinor } from "./decimal.ts";

export interface InvoiceLine {
  description: string;
  /** Negative quantities are returns/credits. */
  quantity: number;
  /** Unit price in minor units. */
  unitPrice: number;
  /** Tax rate in percent, e.g. 20 for 20% VAT. */
  taxRate: number;
  /** Optional line discount in percent. */
  discountPercent?: number;
}

export interface LineTotals {
  net: number;
  tax: number;
  gross: number;
}

export interface InvoiceTotals {
  lines: LineTotals[];
  net: number;
  tax: number;
  gross: number;
  /** Tax per rate, keyed by the rate as a string ("20"). */
  taxByRate: Record<string, number>;
}

/** Net, tax and gross of one line; net and tax are each rounded to minor units. */
export function lineTotals(line: InvoiceLine): LineTotals {
  const gross = line.quantity * line.unitPrice;
  const net = gross - percentage(gross, line.discountPercent ?? 0);
  const tax = percentage(net, line.taxRate);
  return { net, tax, gross: net + tax };
}

/** Totals over all lines. */
export function invoiceTotals(lines: InvoiceLine[]): InvoiceTotals {
  const per = lines.map(lineTotals);
  const taxByRate: Record<string, number> = {};
  lines.forEach((line, i) => {
    const key = String(line.taxRate);
    taxByRate[key] = (taxByRate[key] ?? 0) + per[i].tax;
  });
  return {
    lines: per,
    net: sumMinor(per.map((l) => l.net)),
    tax: sumMinor(per.map((l) => l.tax)),
    gross: sumMinor(per.map((l) => l.gross)),
    taxByRate,
  };
}

/** The credit note that fully reverses an invoice: same lines, negated quantities. */
export function creditNote(lines: InvoiceLine[]): InvoiceLine[] {
  return lines.map((l) => ({ ...l, description: `Credit: ${l.description}`, quantity: -l.quantity }));
}
