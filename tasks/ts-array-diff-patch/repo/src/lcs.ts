/** Longest common subsequence, the core of the array diff. */

/** Equality used to compare items. */
export type Eq<T> = (x: T, y: T) => boolean;

/** Default equality: `Object.is`. */
export function defaultEq<T>(x: T, y: T): boolean {
  return Object.is(x, y);
}

/**
 * Suffix LCS table: `table[i][j]` is the LCS length of `a.slice(i)` and
 * `b.slice(j)`. Size (a.length + 1) x (b.length + 1).
 */
export function lcsTable<T>(a: readonly T[], b: readonly T[], eq: Eq<T> = defaultEq): Uint32Array[] {
  const table = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i][j] = eq(a[i], b[j]) ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  return table;
}

/** One longest common subsequence (items taken from `a`). */
export function lcs<T>(a: readonly T[], b: readonly T[], eq: Eq<T> = defaultEq): T[] {
  const table = lcsTable(a, b, eq);
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (eq(a[i], b[j])) {
      out.push(a[i]);
      i++;
      j++;
    } else if (table[i + 1][j] >= table[i][j + 1]) {
      i++;
    } else {
      j++;
    }
  }
  return out;
}
