/**
 * Price tiers: every section has a base price; accessible seats are discounted.
 */

/** Section name to price in cents. */
export type PriceTable = Record<string, number>;

/** Discount for accessible seats, as a fraction. */
export const ACCESSIBLE_DISCOUNT = 0.5;

/** Price of one seat in cents. */
export function seatPrice(table: PriceTable, section: string, accessible: boolean): number {
  const base = table[section];
  if (base === undefined) throw new Error(`no price for section "${section}"`);
  return accessible ? Math.round(base * (1 - ACCESSIBLE_DISCOUNT)) : base;
}
