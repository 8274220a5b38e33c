/** Formatting durations back to ISO-8601 strings. */
import { DATE_PARTS, type Duration, isZero, TIME_PARTS } from "./duration.ts";

/**
 * The canonical ISO-8601 string for `d`: zero components are left out, the "T" separator is
 * written only when a time component is present, and the zero duration is "PT0S".
 */
export function formatDuration(d: Duration): string {
  if (isZero(d)) return "PT0S";
  let out = d.negative ? "-P" : "P";
  for (const [key, designator] of DATE_PARTS) {
    if (d[key] !== 0) out += formatNumber(d[key]) + designator;
  }
  if (d.hours !== 0 || d.seconds !== 0) {
    out += "T";
    for (const [key, designator] of TIME_PARTS) {
      if (d[key] !== 0) out += formatNumber(d[key]) + designator;
    }
  }
  return out;
}

/** Up to three decimals, no trailing zeros ("1.5", "0.125", "2"). */
function formatNumber(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}
