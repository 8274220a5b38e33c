/**
 * Recurring transactions (rent, salaries, subscriptions): a template and a schedule that says on
 * which dates it happens.
 */
import { addDays, addMonths, compareDates } from "./dates.ts";
import { LedgerError } from "./errors.ts";
import type { Transaction } from "./journal.ts";

/** How often a schedule repeats. */
export interface Interval {
  unit: "day" | "week" | "month" | "year";
  count: number;
}

/** A transaction template and when it recurs. */
export interface Schedule {
  /** Date of the first occurrence. */
  start: string;
  every: Interval;
  /** Last day an occurrence may fall on (inclusive). */
  until?: string;
  /** Stop after this many occurrences. */
  times?: number;
  template: Omit<Transaction, "date">;
}

/** Parse `"month"`, `"2 weeks"`, `"quarter"`, `"year"` into an interval. */
export function parseInterval(text: string): Interval {
  const match = /^(?:(\d+)\s+)?(day|week|month|quarter|year)s?$/.exec(text.trim());
  if (!match) throw new LedgerError("invalid_schedule", `Not an interval: "${text}"`);
  const count = match[1] ? Number(match[1]) : 1;
  if (count < 1) throw new LedgerError("invalid_schedule", `An interval must be at least 1: "${text}"`);
  const unit = match[2];
  if (unit === "quarter") return { unit: "month", count: count * 3 };
  return { unit: unit as Interval["unit"], count };
}

/** The `n`-th (0-based) date of a schedule starting on `start`. */
export function nthDate(start: string, every: Interval, n: number): string {
  switch (every.unit) {
    case "day":
      return addDays(start, n * every.count);
    case "week":
      return addDays(start, 7 * n * every.count);
    case "month":
      return addMonths(start, n * every.count);
    case "year":
      return addMonths(start, 12 * n * every.count);
  }
}

/**
 * Dates of `schedule` up to `through` (inclusive), honouring `until` and `times`. Each date is
 * computed from the start, so a schedule on the 31st comes back to the 31st after a short month.
 */
export function occurrences(schedule: Schedule, through: string): string[] {
  if (schedule.every.count < 1) throw new LedgerError("invalid_schedule", "An interval must be at least 1");
  const end = schedule.until && compareDates(schedule.until, through) < 0 ? schedule.until : through;
  const dates: string[] = [];
  for (let n = 0; schedule.times === undefined || n < schedule.times; n++) {
    const date = nthDate(schedule.start, schedule.every, n);
    if (compareDates(date, end) > 0) break;
    dates.push(date);
  }
  return dates;
}

/** The transactions of `schedule` up to `through`, each a copy of the template with its date. */
export function expand(schedule: Schedule, through: string): Transaction[] {
  return occurrences(schedule, through).map((date) => ({
    ...schedule.template,
    date,
    postings: schedule.template.postings.map((p) => ({ ...p })),
    tags: [...schedule.template.tags],
  }));
}
