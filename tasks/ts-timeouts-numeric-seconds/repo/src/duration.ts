import ms from "ms";

/** A duration that could not be read. */
export class DurationError extends Error {}

/**
 * Milliseconds of a duration: a string with a unit ("250ms", "30s", "2m", "1.5h", "1d"), or a
 * bare number of seconds (45 or "45").
 */
export function parseDuration(value: unknown, field = "duration"): number {
  if (typeof value === "number") return checked(value * 1000, value, field);
  if (typeof value !== "string") {
    throw new DurationError(`${field}: expected a duration, got ${JSON.stringify(value)}`);
  }
  const text = value.trim();
  // ms throws on an empty string and reads a string without a unit as milliseconds.
  const parsed = text === "" ? undefined : ms(text) as number | undefined;
  if (parsed === undefined) {
    throw new DurationError(`${field}: cannot read duration ${JSON.stringify(value)}`);
  }
  return checked(parsed, value, field);
}

/** A short human form of `millis`, e.g. "2m" or "450ms". */
export function formatDuration(millis: number): string {
  return ms(millis);
}

function checked(millis: number, value: unknown, field: string): number {
  if (!Number.isFinite(millis) || millis < 0) {
    throw new DurationError(`${field}: a duration must be zero or more, got ${String(value)}`);
  }
  return Math.round(millis);
}
