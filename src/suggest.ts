/** "Did you mean" for mistyped names: commands, flags, task and episode ids. */

/**
 * The candidate closest to `input` by edit distance, when it is close enough to be a typo
 * (at most a third of the longer name, and at least 1), else null.
 */
export function closest(input: string, candidates: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  const lower = input.toLowerCase();
  for (const candidate of candidates) {
    const d = distance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (best === null) return null;
  const allowed = Math.max(1, Math.floor(Math.max(input.length, best.length) / 3));
  return bestDistance <= allowed ? best : null;
}

/** ` (did you mean "x"?)` for the closest candidate, or "". */
export function didYouMean(input: string, candidates: Iterable<string>, prefix = ""): string {
  const match = closest(input, candidates);
  return match === null ? "" : `; did you mean "${prefix}${match}"?`;
}

/** Levenshtein distance with adjacent transpositions counted as one edit. */
export function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 0; j < cols; j++) d[0][j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}
