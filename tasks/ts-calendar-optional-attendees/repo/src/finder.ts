/**
 * Finding meeting slots when all attendees are free.
 */
import { freeIntervals, type Person } from "./calendar.ts";
import { type Interval, intersect } from "./intervals.ts";
import { fromMinutes, toMinutes } from "./time.ts";

/** A proposed meeting time. */
export interface Slot {
  start: string;
  end: string;
}

/** What to search for. */
export interface SlotQuery {
  attendees: Person[];
  /** Search range, `"YYYY-MM-DDTHH:MM"`, start inclusive, end exclusive. */
  from: string;
  to: string;
  durationMinutes: number;
  /** Candidate starts are aligned to multiples of this many minutes past midnight; default 30. */
  stepMinutes?: number;
  /** Stop after this many slots; default 10. */
  limit?: number;
}

/** Aligned slots in which every attendee is free, in chronological order. */
export function findSlots(query: SlotQuery): Slot[] {
  const range: Interval = { start: toMinutes(query.from), end: toMinutes(query.to) };
  const step = query.stepMinutes ?? 30;
  const limit = query.limit ?? 10;
  if (query.durationMinutes <= 0) throw new RangeError("durationMinutes must be positive");
  if (query.attendees.length === 0) throw new Error("at least one attendee is required");
  let common: Interval[] = [range];
  for (const person of query.attendees) common = intersect(common, freeIntervals(person, range));
  const slots: Slot[] = [];
  for (const free of common) {
    let start = Math.ceil(free.start / step) * step;
    while (start + query.durationMinutes <= free.end && slots.length < limit) {
      slots.push({ start: fromMinutes(start), end: fromMinutes(start + query.durationMinutes) });
      start += step;
    }
  }
  return slots;
}
