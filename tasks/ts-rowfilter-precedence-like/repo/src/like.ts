/**
 * SQL LIKE patterns: `%` matches any run of characters (including none), `_` exactly one, and
 * everything else matches itself. Matching is case-sensitive, like PostgreSQL's LIKE.
 */

const cache = new Map<string, RegExp>();

/** Compiles a LIKE pattern into an anchored regular expression (cached). */
export function likeToRegExp(pattern: string): RegExp {
  let regex = cache.get(pattern);
  if (!regex) {
    let source = "";
    for (const char of pattern) {
      if (char === "%") source += ".*";
      else if (char === "_") source += ".";
      else source += char;
    }
    regex = new RegExp(`^${source}$`, "s");
    cache.set(pattern, regex);
  }
  return regex;
}

/** True when `text` matches the LIKE `pattern`. */
export function like(text: string, pattern: string): boolean {
  return likeToRegExp(pattern).test(text);
}
