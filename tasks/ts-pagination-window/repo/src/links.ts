/** RFC 8288 style navigation links for paginated responses. */
import { PageMeta } from "./paginate.ts";

export interface PageLinks {
  first: string;
  last: string;
  prev?: string;
  next?: string;
}

/** URL of `page`, keeping the other query parameters of `base`. */
export function pageUrl(base: string, page: number, perPage?: number): string {
  const url = new URL(base);
  url.searchParams.set("page", String(page));
  if (perPage !== undefined) url.searchParams.set("per_page", String(perPage));
  return url.toString();
}

export function pageLinks(meta: PageMeta, base: string): PageLinks {
  const links: PageLinks = {
    first: pageUrl(base, 1, meta.perPage),
    last: pageUrl(base, meta.totalPages, meta.perPage),
  };
  if (meta.hasPrev) links.prev = pageUrl(base, meta.page - 1, meta.perPage);
  if (meta.hasNext) links.next = pageUrl(base, meta.page + 1, meta.perPage);
  return links;
}

/** Format links as an HTTP `Link` header value. */
export function linkHeader(links: PageLinks): string {
  return (["first", "prev", "next", "last"] as const)
    .filter((rel) => links[rel] !== undefined)
    .map((rel) => `<${links[rel]}>; rel="${rel}"`)
    .join(", ");
}
