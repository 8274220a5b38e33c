/**
 * Walking paginated collections. Pages are followed through the `Link` header's `rel="next"`
 * until there is none; each page's body must be a JSON array.
 */
import type { ApiClient } from "./api_client.ts";
import { parseLinkHeader, splitTarget } from "./link_header.ts";

/** Options for {@linkcode paginate}. */
export interface PaginateOptions {
  /** Query of the first request; later requests use the server's `next` links. */
  query?: Record<string, string>;
  /** Stop after this many pages; default unlimited. */
  maxPages?: number;
}

/** Yields the items of every page, in order. */
export async function* paginate<T>(client: ApiClient, path: string, options: PaginateOptions = {}): AsyncGenerator<T> {
  let target: { path: string; query: Record<string, string> } | null = { path, query: options.query ?? {} };
  let pages = 0;
  while (target && pages < (options.maxPages ?? Infinity)) {
    const res = await client.request(target.path, target.query);
    pages++;
    if (!Array.isArray(res.body)) throw new TypeError(`GET ${target.path}: expected a JSON array page`);
    for (const item of res.body) yield item as T;
    const next = parseLinkHeader(res.headers["link"]).next;
    target = next ? splitTarget(next) : null;
  }
}

/** Collects {@linkcode paginate} into an array. */
export async function collect<T>(client: ApiClient, path: string, options: PaginateOptions = {}): Promise<T[]> {
  const out: T[] = [];
  for await (const item of paginate<T>(client, path, options)) out.push(item);
  return out;
}
