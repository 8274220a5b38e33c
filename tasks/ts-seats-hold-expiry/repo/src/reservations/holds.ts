/**
 * Holds: seats set aside for a customer while they check out. A hold lasts
 * {@linkcode HOLD_DURATION_MS} from when it was placed; after that its seats are free again.
 */

/** How long a hold lasts: 10 minutes. */
export const HOLD_DURATION_MS = 10 * 60 * 1000;

/** A hold on some seats. */
export interface Hold {
  id: string;
  customer: string;
  seats: string[];
  placedAt: number;
  expiresAt: number;
}

/** Thrown when seats cannot be held or a hold cannot be used. */
export class ReservationError extends Error {
  constructor(readonly code: "seat_taken" | "unknown_hold" | "hold_expired" | "unknown_seat", message: string) {
    super(message);
    this.name = "ReservationError";
  }
}

/** In-memory hold storage. */
export class HoldStore {
  #holds = new Map<string, Hold>();
  #next = 1;

  /** Places a hold; the caller has already checked that the seats are free. */
  place(customer: string, seats: string[], now: number): Hold {
    const hold: Hold = { id: `H${this.#next++}`, customer, seats: [...seats], placedAt: now, expiresAt: now + HOLD_DURATION_MS };
    this.#holds.set(hold.id, hold);
    return hold;
  }

  /** The hold with this id, if any. */
  get(id: string): Hold | undefined {
    return this.#holds.get(id);
  }

  /** Removes a hold (when it is confirmed or released). */
  remove(id: string): void {
    this.#holds.delete(id);
  }

  /** Seats covered by holds. */
  heldSeats(): Set<string> {
    const seats = new Set<string>();
    for (const hold of this.#holds.values()) for (const seat of hold.seats) seats.add(seat);
    return seats;
  }
}
