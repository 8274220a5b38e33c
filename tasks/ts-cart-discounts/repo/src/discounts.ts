/**
 * Discount rules and their application to a cart.
 *
 * Rules are evaluated against the cart subtotal (before any discount) and
 * their amounts are summed; the total never goes below zero.
 */
import { Cart } from "./cart.ts";
import { percentOf } from "./money.ts";

export interface Discount {
  /** Human-readable label, reported in `applied`. */
  label: string;
  /** Discount in cents for this cart (0 when the rule does not apply). */
  amount(cart: Cart): number;
}

/** True when the subtotal reaches the rule's minimum spend ("$50 or more"). */
export function meetsMinimum(subtotal: number, minSubtotal: number): boolean {
  return subtotal > minSubtotal;
}

/** `percent`% off the whole order when the subtotal is at least `minSubtotal` cents. */
export function percentOff(percent: number, minSubtotal = 0): Discount {
  return {
    label: `${percent}% off`,
    amount: (cart) =>
      meetsMinimum(cart.subtotal(), minSubtotal) ? percentOf(cart.subtotal(), percent) : 0,
  };
}

/** A fixed amount (cents) off when the subtotal is at least `minSubtotal` cents. */
export function fixedOff(cents: number, minSubtotal = 0): Discount {
  return {
    label: `${cents} cents off`,
    amount: (cart) => (meetsMinimum(cart.subtotal(), minSubtotal) ? cents : 0),
  };
}

/** Buy `buy` units of `sku`, get `free` more of them free (e.g. buy 2 get 1). */
export function buyXGetY(sku: string, buy: number, free: number): Discount {
  return {
    label: `buy ${buy} get ${free} ${sku}`,
    amount: (cart) => {
      const line = cart.lines().find((l) => l.sku === sku);
      if (!line) return 0;
      const groups = Math.floor(line.qty / (buy + free));
      return groups * free * line.unitPrice;
    },
  };
}

export interface Totals {
  subtotal: number;
  discount: number;
  total: number;
  applied: string[];
}

/** Apply every rule to the cart and compute the totals. */
export function applyDiscounts(cart: Cart, rules: Discount[]): Totals {
  const subtotal = cart.subtotal();
  let discount = 0;
  const applied: string[] = [];
  for (const rule of rules) {
    const amount = rule.amount(cart);
    if (amount > 0) {
      discount += amount;
      applied.push(rule.label);
    }
  }
  discount = Math.min(discount, subtotal);
  return { subtotal, discount, total: subtotal - discount, applied };
}
