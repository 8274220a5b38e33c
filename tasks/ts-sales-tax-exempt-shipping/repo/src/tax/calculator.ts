/** The tax calculation for a whole order. */
import type { JurisdictionRegistry } from "../jurisdictions/mod.ts";
import { applyRate, sum } from "../money/mod.ts";
import { lineAmount, type Order } from "../order.ts";
import { isExempt } from "./exemptions.ts";
import { shippingTax, type TaxPart } from "./shipping.ts";

/** Tax on one order line, with each jurisdiction's part. */
export interface LineTax {
  sku: string;
  taxable: number;
  tax: number;
  parts: TaxPart[];
}

/** The result for an order; `byJurisdiction` is what we file. */
export interface TaxResult {
  orderId: string;
  lines: LineTax[];
  shipping: TaxPart[];
  totalTax: number;
  byJurisdiction: Record<string, number>;
}

export function calculateTax(order: Order, registry: JurisdictionRegistry): TaxResult {
  const chain = registry.chain(order.shipTo);
  const lines = order.lines.map((line): LineTax => {
    const taxable = lineAmount(line);
    const parts = chain
      .filter((j) => !isExempt(j, line.category))
      .map((j) => ({ jurisdiction: j.code, amount: applyRate(taxable, j.rate) }));
    return { sku: line.sku, taxable, tax: sum(parts.map((p) => p.amount)), parts };
  });
  const shipping = shippingTax(chain, order.shipping);
  const byJurisdiction: Record<string, number> = {};
  for (const part of [...lines.flatMap((l) => l.parts), ...shipping]) {
    byJurisdiction[part.jurisdiction] = (byJurisdiction[part.jurisdiction] ?? 0) + part.amount;
  }
  const totalTax = sum(Object.values(byJurisdiction));
  return { orderId: order.id, lines, shipping, totalTax, byJurisdiction };
}
