/** Request-target normalization shared by the router and the link helpers. */

export interface SplitTarget {
  /** Normalized path: leading "/", no duplicate slashes, no trailing slash (except "/"). */
  path: string;
  /** Raw query string without the leading "?" ("" when absent). */
  query: string;
}

/**
 * Normalize a request target such as "/users//42/?tab=posts#top".
 *
 * The fragment is dropped, the query string is split off untouched, and the
 * path gets duplicate slashes collapsed and its trailing slash removed.
 */
export function normalizeTarget(target: string): SplitTarget {
  let path = target.replace(/\/{2,}/g, "/");
  if (path.length > 1 && path.endsWith("/")) path = path.slice(0, -1);
  const hash = path.indexOf("#");
  if (hash >= 0) path = path.slice(0, hash);
  let query = "";
  const q = path.indexOf("?");
  if (q >= 0) {
    query = path.slice(q + 1);
    path = path.slice(0, q);
  }
  if (!path.startsWith("/")) path = "/" + path;
  return { path, query };
}

/** Split a normalized path into percent-decoded segments ("/" -> []). */
export function pathSegments(path: string): string[] {
  if (path === "/") return [];
  return path.slice(1).split("/").map((s) => decodeURIComponent(s));
}
