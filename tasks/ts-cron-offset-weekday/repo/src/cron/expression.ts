/** Five-field cron expressions. */
import { CronSyntaxError, type Field, parseField } from "./field.ts";
import type { WallClock } from "../time/wallclock.ts";

const MONTHS = { JAN: 1, FEB: 2, MAR: 3, APR: 4, MAY: 5, JUN: 6, JUL: 7, AUG: 8, SEP: 9, OCT: 10, NOV: 11, DEC: 12 };
const DAYS = { SUN: 0, MON: 1, TUE: 2, WED: 3, THU: 4, FRI: 5, SAT: 6 };

/** A parsed cron expression. */
export interface CronExpression {
  source: string;
  minute: Field;
  hour: Field;
  dayOfMonth: Field;
  month: Field;
  dayOfWeek: Field;
}

/** Parses "m h dom mon dow". Day-of-week 7 is accepted as Sunday. */
export function parseCron(source: string): CronExpression {
  const parts = source.trim().split(/\s+/);
  if (parts.length !== 5) throw new CronSyntaxError("expression", source, `expected 5 fields, got ${parts.length}`);
  const dayOfWeek = parseField({ name: "day-of-week", min: 0, max: 7, aliases: DAYS }, parts[4]);
  const weekdays = new Set([...dayOfWeek.values].map((d) => d % 7));
  return {
    source,
    minute: parseField({ name: "minute", min: 0, max: 59 }, parts[0]),
    hour: parseField({ name: "hour", min: 0, max: 23 }, parts[1]),
    dayOfMonth: parseField({ name: "day-of-month", min: 1, max: 31 }, parts[2]),
    month: parseField({ name: "month", min: 1, max: 12, aliases: MONTHS }, parts[3]),
    dayOfWeek: { values: weekdays, wildcard: dayOfWeek.wildcard },
  };
}

/**
 * True when the day matches. As in Vixie cron, when both day fields are restricted a day
 * matches if either does ("0 0 1 * MON" runs on the 1st and on every Monday).
 */
export function matchesDay(expr: CronExpression, wall: WallClock): boolean {
  const dom = expr.dayOfMonth.values.has(wall.day);
  const dow = expr.dayOfWeek.values.has(wall.weekday);
  if (expr.dayOfMonth.wildcard) return dow;
  if (expr.dayOfWeek.wildcard) return dom;
  return dom || dow;
}
