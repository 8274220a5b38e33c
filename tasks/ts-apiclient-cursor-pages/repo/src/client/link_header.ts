/**
 * Parsing RFC 8288 `Link` headers: `<url>; rel="next", <url>; rel="last"`.
 */

/** rel to target URL; a link with several rels (`rel="next last"`) is listed under each. */
export function parseLinkHeader(header: string | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  if (!header) return links;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (!match) continue;
    const rel = /;\s*rel="?([^";]+)"?/i.exec(match[2]);
    if (!rel) continue;
    for (const name of rel[1].trim().split(/\s+/)) links[name.toLowerCase()] = match[1];
  }
  return links;
}

/** Splits `/users?page=2&per_page=10` into path and query. */
export function splitTarget(target: string): { path: string; query: Record<string, string> } {
  const url = new URL(target, "http://api.invalid");
  return { path: url.pathname, query: Object.fromEntries(url.searchParams) };
}
