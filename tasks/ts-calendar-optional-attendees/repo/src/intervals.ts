/**
 * Half-open intervals `[start, end)` in minutes, and set operations on sorted lists of them.
 */

/** A half-open interval; `start < end`. */
export interface Interval {
  start: number;
  end: number;
}

/** Sorts and merges overlapping or touching intervals. */
export function merge(intervals: Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const interval of sorted) {
    const last = out[out.length - 1];
    if (last && interval.start <= last.end) last.end = Math.max(last.end, interval.end);
    else out.push({ ...interval });
  }
  return out;
}

/** Parts of `range` not covered by `busy`. */
export function subtract(range: Interval, busy: Interval[]): Interval[] {
  const out: Interval[] = [];
  let cursor = range.start;
  for (const b of merge(busy)) {
    if (b.end <= cursor) continue;
    if (b.start >= range.end) break;
    if (b.start > cursor) out.push({ start: cursor, end: b.start });
    cursor = Math.max(cursor, b.end);
  }
  if (cursor < range.end) out.push({ start: cursor, end: range.end });
  return out;
}

/** Intersection of two merged, sorted lists. */
export function intersect(a: Interval[], b: Interval[]): Interval[] {
  const out: Interval[] = [];
  let i = 0, j = 0;
  while (i < a.length && j < b.length) {
    const start = Math.max(a[i].start, b[j].start);
    const end = Math.min(a[i].end, b[j].end);
    if (start < end) out.push({ start, end });
    if (a[i].end < b[j].end) i++;
    else j++;
  }
  return out;
}

/** True when `inner` lies entirely inside one interval of the merged list `free`. */
export function covers(free: Interval[], inner: Interval): boolean {
  return free.some((f) => f.start <= inner.start && inner.end <= f.end);
}
