/**
 * Venue layout: sections made of rows of consecutively numbered seats.
 */
import { seatId } from "./seat_id.ts";

/** One seat. */
export interface Seat {
  id: string;
  section: string;
  row: string;
  number: number;
  accessible: boolean;
}

/** Declarative description of a section. */
export interface SectionSpec {
  name: string;
  /** Row letter to number of seats. */
  rows: Record<string, number>;
  /** Seat ids that are wheelchair accessible. */
  accessible?: string[];
}

/** The seats of a venue, in row then seat order. */
export class Layout {
  readonly seats: readonly Seat[];
  #byId: Map<string, Seat>;

  constructor(sections: SectionSpec[]) {
    const seats: Seat[] = [];
    for (const section of sections) {
      const accessible = new Set(section.accessible ?? []);
      for (const [row, count] of Object.entries(section.rows)) {
        for (let n = 1; n <= count; n++) {
          const id = seatId(row, n);
          seats.push({ id, section: section.name, row, number: n, accessible: accessible.has(id) });
        }
      }
    }
    this.seats = seats;
    this.#byId = new Map(seats.map((s) => [s.id, s]));
    if (this.#byId.size !== seats.length) throw new Error("duplicate seat ids in layout");
  }

  /** The seat with this id, or throws for unknown ids. */
  seat(id: string): Seat {
    const seat = this.#byId.get(id);
    if (!seat) throw new Error(`unknown seat "${id}"`);
    return seat;
  }

  /** Seats of one row in seat-number order. */
  row(row: string): Seat[] {
    return this.seats.filter((s) => s.row === row);
  }

  /** Row letters in layout order. */
  rows(): string[] {
    return [...new Set(this.seats.map((s) => s.row))];
  }
}
