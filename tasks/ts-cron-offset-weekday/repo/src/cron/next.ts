/** Finding the next time a cron expression fires at a fixed UTC offset. */
import { type CronExpression, matchesDay } from "./expression.ts";
import { fromWallClock, toWallClock } from "../time/wallclock.ts";

/** How far ahead to search before giving up (e.g. "0 0 30 2 *" never fires). */
const MAX_YEARS = 5;

/**
 * The first instant strictly after `after`, on a whole minute, at which `expr` matches the
 * wall clock at `offsetMinutes`; `null` if it never fires within five years.
 */
export function nextRun(expr: CronExpression, after: Date, offsetMinutes: number): Date | null {
  const start = toWallClock(after, offsetMinutes);
  let t = fromWallClock({ ...start, minute: start.minute + 1 }, offsetMinutes);
  const limit = start.year + MAX_YEARS;
  while (true) {
    const w = toWallClock(t, offsetMinutes);
    if (w.year > limit) return null;
    if (!expr.month.values.has(w.month)) {
      t = fromWallClock({ year: w.year, month: w.month + 1, day: 1, hour: 0, minute: 0 }, offsetMinutes);
    } else if (!matchesDay(expr, w)) {
      t = fromWallClock({ ...w, day: w.day + 1, hour: 0, minute: 0 }, offsetMinutes);
    } else if (!expr.hour.values.has(w.hour)) {
      t = fromWallClock({ ...w, hour: w.hour + 1, minute: 0 }, offsetMinutes);
    } else if (!expr.minute.values.has(w.minute)) {
      t = fromWallClock({ ...w, minute: w.minute + 1 }, offsetMinutes);
    } else {
      return t;
    }
  }
}

/** The next `count` runs after `after`, in order. */
export function nextRuns(expr: CronExpression, after: Date, offsetMinutes: number, count: number): Date[] {
  const runs: Date[] = [];
  let cursor: Date | null = after;
  while (runs.length < count && (cursor = nextRun(expr, cursor, offsetMinutes)) !== null) runs.push(cursor);
  return runs;
}
