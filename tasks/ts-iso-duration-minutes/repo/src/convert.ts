/** Conversions between durations and plain numbers of seconds. */
import { duration, type Duration } from "./duration.ts";

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Total seconds, assuming the nominal calendar used by our billing reports: a day is 24 h,
 * a week 7 days, a month 30 days and a year 365 days.
 */
export function toSeconds(d: Duration): number {
  const total = d.years * 365 * DAY + d.months * 30 * DAY + d.weeks * 7 * DAY + d.days * DAY +
    d.hours * HOUR + d.minutes * MINUTE + d.seconds;
  return d.negative ? -total : total;
}

/** Splits a number of seconds into days, hours, minutes and seconds (never months or years). */
export function fromSeconds(totalSeconds: number): Duration {
  const negative = totalSeconds < 0;
  let rest = Math.abs(totalSeconds);
  const days = Math.floor(rest / DAY);
  rest -= days * DAY;
  const hours = Math.floor(rest / HOUR);
  rest -= hours * HOUR;
  const minutes = Math.floor(rest / MINUTE);
  rest -= minutes * MINUTE;
  return duration({ days, hours, minutes, seconds: Math.round(rest * 1000) / 1000, negative });
}
