/**
 * Quotes for a set of seats, including the per-order booking fee.
 */
import type { Layout } from "../venue/layout.ts";
import { type PriceTable, seatPrice } from "./tiers.ts";

/** Flat fee per order in cents. */
export const BOOKING_FEE_CENTS = 250;

/** An itemized quote. */
export interface Quote {
  lines: { seat: string; cents: number }[];
  feeCents: number;
  totalCents: number;
}

/** Prices the given seats. */
export function quote(layout: Layout, prices: PriceTable, seatIds: string[]): Quote {
  const lines = seatIds.map((id) => {
    const seat = layout.seat(id);
    return { seat: id, cents: seatPrice(prices, seat.section, seat.accessible) };
  });
  const subtotal = lines.reduce((sum, line) => sum + line.cents, 0);
  return { lines, feeCents: BOOKING_FEE_CENTS, totalCents: subtotal + BOOKING_FEE_CENTS };
}
