/** Page arithmetic for list endpoints. */

export interface PageRequest {
  /** 1-based page number; out-of-range values are clamped. */
  page?: number;
  perPage?: number;
}

export interface PageMeta {
  page: number;
  perPage: number;
  total: number;
  totalPages: number;
  /** Index of the first item on the page. */
  offset: number;
  /** Number of items on the page. */
  count: number;
  hasPrev: boolean;
  hasNext: boolean;
}

export const MAX_PER_PAGE = 100;

/** Compute the metadata for one page of `total` items. */
export function paginate(total: number, request: PageRequest = {}): PageMeta {
  if (!Number.isInteger(total) || total < 0) throw new RangeError(`invalid total ${total}`);
  const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Math.floor(request.perPage ?? 20)));
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const page = Math.min(totalPages, Math.max(1, Math.floor(request.page ?? 1)));
  const offset = (page - 1) * perPage;
  return {
    page,
    perPage,
    total,
    totalPages,
    offset,
    count: Math.max(0, Math.min(perPage, total - offset)),
    hasPrev: page > 1,
    hasNext: page < totalPages,
  };
}

/** The items of `all` that belong on the requested page, with its metadata. */
export function pageOf<T>(all: readonly T[], request: PageRequest = {}): { items: T[]; meta: PageMeta } {
  const meta = paginate(all.length, request);
  return { items: all.slice(meta.offset, meta.offset + meta.count), meta };
}
