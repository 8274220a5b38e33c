/** Parsing of application/x-www-form-urlencoded query strings. */

export type Query = Record<string, string | string[]>;

function decode(part: string): string {
  return decodeURIComponent(part.replace(/\+/g, " "));
}

/** Parse "a=1&b=x+y&a=2" into { a: ["1", "2"], b: "x y" }. Keys without "=" get "". */
export function parseQuery(query: string): Query {
  const out: Query = {};
  for (const pair of query.split("&")) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? "" : decode(pair.slice(eq + 1));
    const prev = out[key];
    if (prev === undefined) out[key] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[key] = [prev, value];
  }
  return out;
}
