/**
 * The box office: the one entry point the web handlers call. It owns the hold and booking stores
 * and reads the time from an injected {@linkcode Clock}.
 */
import { type Clock, systemClock } from "./clock.ts";
import type { Layout, Seat } from "./venue/layout.ts";
import { type Hold, HoldStore, ReservationError } from "./reservations/holds.ts";
import { type Booking, BookingStore } from "./reservations/bookings.ts";
import { bestBlock, freeSeats } from "./reservations/availability.ts";
import type { PriceTable } from "./pricing/tiers.ts";
import { quote } from "./pricing/quote.ts";

/** Sells seats of one performance. */
export class BoxOffice {
  readonly holds = new HoldStore();
  readonly bookings = new BookingStore();

  constructor(readonly layout: Layout, readonly prices: PriceTable, readonly clock: Clock = systemClock) {}

  /** Seats that are neither booked nor held. */
  available(): Seat[] {
    return freeSeats(this.layout, this.#taken());
  }

  /** Holds specific seats for a customer. */
  hold(customer: string, seatIds: string[]): Hold {
    const taken = this.#taken();
    for (const id of seatIds) {
      this.layout.seat(id);
      if (taken.has(id)) throw new ReservationError("seat_taken", `seat ${id} is not available`);
    }
    return this.holds.place(customer, seatIds, this.clock.now());
  }

  /** Holds the best block of `size` adjacent seats, or returns null when none is free. */
  holdBest(customer: string, size: number): Hold | null {
    const block = bestBlock(this.layout, this.#taken(), size);
    return block ? this.hold(customer, block.map((s) => s.id)) : null;
  }

  /** Turns a hold into a booking. */
  confirm(holdId: string): Booking {
    const hold = this.holds.get(holdId);
    if (!hold) throw new ReservationError("unknown_hold", `no hold ${holdId}`);
    const priced = quote(this.layout, this.prices, hold.seats);
    this.holds.remove(hold.id);
    return this.bookings.add(hold.customer, hold.seats, priced.totalCents, this.clock.now());
  }

  /** Gives the seats of a hold back. */
  release(holdId: string): void {
    this.holds.remove(holdId);
  }

  #taken(): Set<string> {
    const taken = this.bookings.bookedSeats();
    for (const seat of this.holds.heldSeats()) taken.add(seat);
    return taken;
  }
}
