/**
 * Money helpers for orders.
 */
import type { OrderLine } from "./types.ts";

/** Sum of quantity times unit price, in cents. */
export function orderTotal(lines: readonly OrderLine[]): number {
  return lines.reduce((sum, line) => sum + line.qty * line.unitPrice, 0);
}
