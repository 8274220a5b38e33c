/** Tax on shipping charges. */
import type { Jurisdiction } from "../jurisdictions/types.ts";
import { applyRate } from "../money/mod.ts";

/** One jurisdiction's share of a tax amount. */
export interface TaxPart {
  jurisdiction: string;
  amount: number;
}

/** Tax on the shipping charge in each jurisdiction of the chain. */
export function shippingTax(chain: readonly Jurisdiction[], shipping: number): TaxPart[] {
  if (shipping <= 0) return [];
  return chain.map((j) => ({ jurisdiction: j.code, amount: applyRate(shipping, j.rate) }));
}
