/**
 * Wall-clock time at a fixed UTC offset. Cron fields are matched against wall-clock values,
 * so every field (including the weekday) must describe the local date, not the UTC one.
 */

/** Local date and time fields; `month` is 1-12 and `weekday` 0 (Sunday) to 6. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  weekday: number;
}

const MINUTE_MS = 60_000;

/** The wall-clock reading at `offsetMinutes` east of UTC for `instant`. */
export function toWallClock(instant: Date, offsetMinutes: number): WallClock {
  const shifted = new Date(instant.getTime() + offsetMinutes * MINUTE_MS);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    weekday: instant.getUTCDay(),
  };
}

/**
 * The instant at which the wall clock at `offsetMinutes` reads the given fields. Fields may
 * overflow (`day: 32`, `hour: 24`) and are normalized like `Date.UTC` does.
 */
export function fromWallClock(
  fields: Omit<WallClock, "weekday">,
  offsetMinutes: number,
): Date {
  const asUtc = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute);
  return new Date(asUtc - offsetMinutes * MINUTE_MS);
}

/** ISO-8601 text of `instant` as seen at the offset, e.g. "2026-03-02T09:00+05:30". */
export function formatLocal(instant: Date, offsetMinutes: number, offsetText: string): string {
  const w = toWallClock(instant, offsetMinutes);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}${offsetText}`;
}
