/**
 * Times are ISO local date-times without a zone (`"2024-05-06T09:30"`), all in the team's one
 * time zone, and are handled internally as minutes since the Unix epoch.
 */

/** Minutes since the epoch for `"YYYY-MM-DDTHH:MM"`. */
export function toMinutes(text: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text);
  if (!match) throw new Error(`bad date-time "${text}" (expected YYYY-MM-DDTHH:MM)`);
  const [, y, mo, d, h, mi] = match.map(Number);
  return Date.UTC(y, mo - 1, d, h, mi) / 60_000;
}

/** `"YYYY-MM-DDTHH:MM"` for minutes since the epoch. */
export function fromMinutes(minutes: number): string {
  return new Date(minutes * 60_000).toISOString().slice(0, 16);
}

/** Minutes since midnight for `"HH:MM"`. */
export function clockMinutes(text: string): number {
  const match = /^(\d{2}):(\d{2})$/.exec(text);
  if (!match) throw new Error(`bad time "${text}" (expected HH:MM)`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** Day of week, 0 = Sunday, for minutes since the epoch. */
export function weekday(minutes: number): number {
  return new Date(minutes * 60_000).getUTCDay();
}

/** Minutes since the epoch of the midnight starting this day. */
export function startOfDay(minutes: number): number {
  return Math.floor(minutes / 1440) * 1440;
}
