/**
 * Which seats can be sold, and finding a block of adjacent seats for a party.
 */
import type { Layout, Seat } from "../venue/layout.ts";

/** Seats that are neither booked nor held, in layout order. */
export function freeSeats(layout: Layout, taken: Set<string>): Seat[] {
  return layout.seats.filter((s) => !taken.has(s.id));
}

/**
 * The first run of `size` adjacent free seats, scanning rows in layout order; within a row the run
 * closest to the row's centre wins. Returns null when no row has room.
 */
export function bestBlock(layout: Layout, taken: Set<string>, size: number): Seat[] | null {
  for (const row of layout.rows()) {
    const seats = layout.row(row);
    const centre = (seats.length + 1) / 2;
    let best: Seat[] | null = null;
    let bestDistance = Infinity;
    for (let start = 0; start + size <= seats.length; start++) {
      const run = seats.slice(start, start + size);
      if (run.some((s) => taken.has(s.id))) continue;
      const middle = (run[0].number + run[run.length - 1].number) / 2;
      const distance = Math.abs(middle - centre);
      if (distance < bestDistance) {
        best = run;
        bestDistance = distance;
      }
    }
    if (best) return best;
  }
  return null;
}
