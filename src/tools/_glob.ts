/** Glob patterns (`*`, `**`, `?`, `[abc]`, `{a,b}`) as regular expressions over `/` paths. */

/**
 * Compile a glob to a RegExp matching whole relative paths. A pattern without `/` matches the
 * file name anywhere (`*.py` finds `src/a.py`), as in ripgrep's `--glob`.
 */
export function globToRegExp(glob: string): RegExp {
  const anchored = glob.includes("/");
  let source = "";
  let inGroup = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") {
      if (glob[i + 1] === "*") {
        i++;
        if (glob[i + 1] === "/") {
          i++;
          source += "(?:.*/)?";
        } else {
          source += ".*";
        }
      } else {
        source += "[^/]*";
      }
    } else if (c === "?") source += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end === -1) source += "\\[";
      else {
        // A negated class never matches "/": like `*` and `?`, it stays inside one name.
        source += `[${glob.slice(i + 1, end).replace(/^[!^]/, "^/").replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else if (c === "{") {
      inGroup++;
      source += "(?:";
    } else if (c === "}" && inGroup > 0) {
      inGroup--;
      source += ")";
    } else if (c === "," && inGroup > 0) source += "|";
    else source += c.replace(/[.+^$()|\\]/g, "\\$&");
  }
  const pattern = glob.startsWith("/") ? source.slice(1) : source;
  return new RegExp(anchored ? `^${pattern}$` : `(?:^|/)${pattern}$`);
}
