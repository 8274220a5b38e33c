/**
 * Calendar dates as ISO strings (`YYYY-MM-DD`). Banks export `DD/MM/YYYY`; both are accepted.
 */

/** Parses `YYYY-MM-DD` or `DD/MM/YYYY` into an ISO date string. */
export function parseDate(input: string): string {
  const text = input.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (iso) return text;
  const uk = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (uk) return `${uk[3]}-${uk[2].padStart(2, "0")}-${uk[1].padStart(2, "0")}`;
  throw new Error(`not a date: "${input}"`);
}

/** Whole days from `a` to `b` (negative when `b` is earlier). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}
