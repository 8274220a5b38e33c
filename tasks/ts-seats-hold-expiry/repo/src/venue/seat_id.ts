/**
 * Seat ids look like `"B-12"`: row letter(s), a dash, and the seat number within the row.
 */

/** A parsed seat id. */
export interface SeatRef {
  row: string;
  number: number;
}

/** Builds a seat id. */
export function seatId(row: string, number: number): string {
  return `${row}-${number}`;
}

/** Parses a seat id; throws on malformed ids. */
export function parseSeatId(id: string): SeatRef {
  const match = /^([A-Z]+)-([1-9][0-9]*)$/.exec(id);
  if (!match) throw new Error(`bad seat id "${id}"`);
  return { row: match[1], number: Number(match[2]) };
}
