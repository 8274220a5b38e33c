/**
 * Jaro and Jaro-Winkler similarity (Winkler 1990), tuned for short strings such as names.
 */

/** Winkler's prefix scale; must not exceed 0.25 or scores can pass 1. */
export const PREFIX_SCALE = 0.1;
/** Longest common prefix that earns a bonus. */
export const MAX_PREFIX = 4;
/** Jaro score below which no prefix bonus is given. */
export const BOOST_THRESHOLD = 0.7;

/** Jaro similarity in [0, 1]. */
export function jaro(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Array<boolean>(a.length).fill(false);
  const bMatched = new Array<boolean>(b.length).fill(false);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const from = Math.max(0, i - window);
    const to = Math.min(b.length - 1, i + window);
    for (let j = from; j <= to; j++) {
      if (bMatched[j] || a[i] !== b[j]) continue;
      aMatched[i] = bMatched[j] = true;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let transposed = 0;
  let k = 0;
  for (let i = 0; i < a.length; i++) {
    if (!aMatched[i]) continue;
    while (!bMatched[k]) k++;
    if (a[i] !== b[k]) transposed++;
    k++;
  }
  const m = matches;
  return (m / a.length + m / b.length + (m - transposed / 2) / m) / 3;
}

/** Jaro-Winkler similarity: Jaro plus a bonus for a shared prefix of up to {@linkcode MAX_PREFIX}. */
export function jaroWinkler(a: string, b: string): number {
  const j = jaro(a, b);
  if (j < BOOST_THRESHOLD) return j;
  const limit = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < limit && a[prefix] === b[prefix]) prefix++;
  return j + prefix * PREFIX_SCALE * (1 - j);
}
