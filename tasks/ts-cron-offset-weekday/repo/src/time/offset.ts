/** Fixed UTC offsets ("+05:30", "-08:00", "Z"), in minutes east of UTC. */

/** Thrown for malformed offsets. */
export class OffsetError extends Error {
  constructor(readonly input: string) {
    super(`invalid UTC offset "${input}" (expected "Z" or "+HH:MM")`);
    this.name = "OffsetError";
  }
}

/** Parses "Z", "+HH:MM" or "-HH:MM" into minutes east of UTC ("-08:00" -> -480). */
export function parseOffset(input: string): number {
  if (input === "Z" || input === "UTC") return 0;
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(input);
  if (!m) throw new OffsetError(input);
  const hours = Number(m[2]);
  const minutes = Number(m[3]);
  if (hours > 14 || minutes > 59) throw new OffsetError(input);
  const total = hours * 60 + minutes;
  return m[1] === "-" ? -total : total;
}

/** Formats minutes east of UTC as "+HH:MM" (0 becomes "Z"). */
export function formatOffset(minutes: number): string {
  if (minutes === 0) return "Z";
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, "0");
  const mm = String(abs % 60).padStart(2, "0");
  return `${sign}${hh}:${mm}`;
}
