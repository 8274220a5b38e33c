/**
 * ISO-8601 durations ("P1Y2M3DT4H5M6.5S", "P2W"). Components are kept separately because
 * months and years have no fixed length; only `toSeconds` assumes a nominal calendar.
 */

/** A duration broken into its ISO-8601 components; missing components are zero. */
export interface Duration {
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  /** True for a negative duration ("-P1D"). */
  negative: boolean;
}

/** Date components in the order ISO-8601 writes them, with their designators. */
export const DATE_PARTS = [["years", "Y"], ["months", "M"], ["weeks", "W"], ["days", "D"]] as const;

/** Time components (after the "T"), with their designators. */
export const TIME_PARTS = [["hours", "H"], ["minutes", "M"], ["seconds", "S"]] as const;

/** A duration with every component zero, overridden by `parts`. */
export function duration(parts: Partial<Duration> = {}): Duration {
  return {
    years: 0,
    months: 0,
    weeks: 0,
    days: 0,
    hours: 0,
    minutes: 0,
    seconds: 0,
    negative: false,
    ...parts,
  };
}

/** True when every component is zero. */
export function isZero(d: Duration): boolean {
  return [...DATE_PARTS, ...TIME_PARTS].every(([key]) => d[key] === 0);
}
