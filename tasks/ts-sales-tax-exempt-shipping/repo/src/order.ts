/** Orders as the checkout service sends them. */
import type { Address } from "./jurisdictions/types.ts";

export interface OrderLine {
  sku: string;
  /** Hierarchical category, e.g. "food/grocery/dairy". */
  category: string;
  unitPrice: number;
  qty: number;
  /** Line discount in cents, already applied by the promotions service. */
  discount?: number;
}

export interface Order {
  id: string;
  lines: OrderLine[];
  /** Shipping charge in cents. */
  shipping: number;
  shipTo: Address;
}

/** The taxable amount of a line: price times quantity, less its discount. */
export function lineAmount(line: OrderLine): number {
  return Math.max(0, line.unitPrice * line.qty - (line.discount ?? 0));
}
