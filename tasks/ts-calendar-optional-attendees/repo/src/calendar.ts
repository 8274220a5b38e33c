/**
 * A person's calendar: busy events plus working hours. Outside working hours a person counts as busy.
 */
import { type Interval, merge, subtract } from "./intervals.ts";
import { clockMinutes, startOfDay, toMinutes, weekday } from "./time.ts";

/** Working hours, the same every working day. */
export interface WorkingHours {
  /** `"HH:MM"`, inclusive. */
  start: string;
  /** `"HH:MM"`, exclusive. */
  end: string;
  /** Working days, 0 = Sunday; default Monday to Friday. */
  days?: number[];
}

/** One attendee. */
export interface Person {
  name: string;
  /** Busy events as `["YYYY-MM-DDTHH:MM", "YYYY-MM-DDTHH:MM"]` pairs. */
  busy: [string, string][];
  /** Default 09:00 to 17:00, Monday to Friday. */
  hours?: WorkingHours;
}

/** The default working hours. */
export const DEFAULT_HOURS: WorkingHours = { start: "09:00", end: "17:00", days: [1, 2, 3, 4, 5] };

/** Working-hour intervals of `person` that overlap `range`. */
export function workingIntervals(person: Person, range: Interval): Interval[] {
  const hours = person.hours ?? DEFAULT_HOURS;
  const days = new Set(hours.days ?? DEFAULT_HOURS.days);
  const from = clockMinutes(hours.start), to = clockMinutes(hours.end);
  const out: Interval[] = [];
  for (let day = startOfDay(range.start); day < range.end; day += 1440) {
    if (!days.has(weekday(day))) continue;
    const start = Math.max(day + from, range.start);
    const end = Math.min(day + to, range.end);
    if (start < end) out.push({ start, end });
  }
  return out;
}

/** Times within `range` when `person` is at work and not busy, merged and sorted. */
export function freeIntervals(person: Person, range: Interval): Interval[] {
  const busy = person.busy.map(([s, e]) => ({ start: toMinutes(s), end: toMinutes(e) }));
  return merge(workingIntervals(person, range).flatMap((w) => subtract(w, busy)));
}
