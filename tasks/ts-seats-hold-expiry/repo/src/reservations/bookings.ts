/**
 * Confirmed bookings. A booking is made from a hold and owns its seats until cancelled.
 */

/** A confirmed booking. */
export interface Booking {
  id: string;
  customer: string;
  seats: string[];
  totalCents: number;
  confirmedAt: number;
}

/** In-memory booking storage. */
export class BookingStore {
  #bookings = new Map<string, Booking>();
  #next = 1;

  /** Records a booking. */
  add(customer: string, seats: string[], totalCents: number, now: number): Booking {
    const booking: Booking = { id: `K${this.#next++}`, customer, seats: [...seats], totalCents, confirmedAt: now };
    this.#bookings.set(booking.id, booking);
    return booking;
  }

  /** Cancels a booking; returns false when it does not exist. */
  cancel(id: string): boolean {
    return this.#bookings.delete(id);
  }

  /** Seats owned by bookings. */
  bookedSeats(): Set<string> {
    const seats = new Set<string>();
    for (const booking of this.#bookings.values()) for (const seat of booking.seats) seats.add(seat);
    return seats;
  }

  /** All bookings in confirmation order. */
  all(): Booking[] {
    return [...this.#bookings.values()];
  }
}
