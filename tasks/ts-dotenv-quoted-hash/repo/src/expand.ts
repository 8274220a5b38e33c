/**
 * Variable expansion: `${NAME}`, `$NAME` and `${NAME:-fallback}` (fallback
 * used when NAME is unset or empty). `\$` is a literal dollar sign.
 */

export type Lookup = (name: string) => string | undefined;

const REF_RE = /\\\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g;

export function expand(value: string, lookup: Lookup): string {
  return value.replace(REF_RE, (match, braced?: string, fallback?: string, bare?: string) => {
    if (match === "\\$") return "$";
    const name = braced ?? bare!;
    const found = lookup(name);
    if ((found === undefined || found === "") && fallback !== undefined) return fallback;
    return found ?? "";
  });
}
