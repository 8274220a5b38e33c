/**
 * Calendar dates as ISO strings (`2024-03-31`). Dates have no time zone: arithmetic goes through
 * day numbers computed in UTC, so a date never shifts with the machine's local zone.
 */

/** A period of whole days, both ends inclusive. */
export interface Period {
  start: string;
  end: string;
}

/** Units a report or a schedule can step by. */
export type PeriodUnit = "month" | "quarter" | "year";

const MS_PER_DAY = 86_400_000;

/** `text` when it is a real calendar date in `YYYY-MM-DD` form; throws otherwise. */
export function parseDate(text: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) throw new SyntaxError(`Not a date (YYYY-MM-DD): "${text}"`);
  const [y, m, d] = match.slice(1).map(Number);
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) {
    throw new SyntaxError(`No such date: "${text}"`);
  }
  return text;
}

/** Number of days in month `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Day number of `date` (days since 1970-01-01). */
export function toDayNumber(date: string): number {
  const [y, m, d] = date.split("-").map(Number);
  return Date.UTC(y, m - 1, d) / MS_PER_DAY;
}

/** The date of day number `n`. */
export function fromDayNumber(n: number): string {
  return new Date(n * MS_PER_DAY).toISOString().slice(0, 10);
}

/** `date` plus `days` (negative to go back). */
export function addDays(date: string, days: number): string {
  return fromDayNumber(toDayNumber(date) + days);
}

/** Days from `from` to `to`: positive when `to` is later. */
export function daysBetween(from: string, to: string): number {
  return toDayNumber(to) - toDayNumber(from);
}

/**
 * `date` plus `months` calendar months. A day that does not exist in the target month is clamped
 * to its last day (Jan 31 + 1 month = Feb 29 in a leap year).
 */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  const day = Math.min(d, daysInMonth(year, month));
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** Negative, zero or positive as `a` is before, on or after `b`. */
export function compareDates(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Last day of `date`'s month. */
export function endOfMonth(date: string): string {
  const [y, m] = date.split("-").map(Number);
  return `${date.slice(0, 7)}-${String(daysInMonth(y, m)).padStart(2, "0")}`;
}

/** The month, quarter or year that contains `date`. */
export function periodContaining(date: string, unit: PeriodUnit): Period {
  const [y, m] = date.split("-").map(Number);
  const firstMonth = unit === "month" ? m : unit === "quarter" ? m - ((m - 1) % 3) : 1;
  const length = unit === "month" ? 1 : unit === "quarter" ? 3 : 12;
  const start = `${y}-${String(firstMonth).padStart(2, "0")}-01`;
  return { start, end: addDays(addMonths(start, length), -1) };
}

/** True when `date` lies in `period` (ends included). */
export function inPeriod(date: string, period: Period): boolean {
  return date >= period.start && date <= period.end;
}
