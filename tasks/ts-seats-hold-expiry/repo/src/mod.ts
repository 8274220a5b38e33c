/**
 * seatwise: seat holds, bookings and pricing for a single performance.
 */
export { ManualClock, systemClock } from "./clock.ts";
export type { Clock } from "./clock.ts";
export { Layout } from "./venue/layout.ts";
export type { Seat, SectionSpec } from "./venue/layout.ts";
export { parseSeatId, seatId } from "./venue/seat_id.ts";
export { HOLD_DURATION_MS, HoldStore, ReservationError } from "./reservations/holds.ts";
export type { Hold } from "./reservations/holds.ts";
export { BookingStore } from "./reservations/bookings.ts";
export type { Booking } from "./reservations/bookings.ts";
export { bestBlock, freeSeats } from "./reservations/availability.ts";
export { ACCESSIBLE_DISCOUNT, seatPrice } from "./pricing/tiers.ts";
export type { PriceTable } from "./pricing/tiers.ts";
export { BOOKING_FEE_CENTS, quote } from "./pricing/quote.ts";
export type { Quote } from "./pricing/quote.ts";
export { BoxOffice } from "./box_office.ts";
