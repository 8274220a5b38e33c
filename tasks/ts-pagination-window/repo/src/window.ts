/**
 * The list of page buttons to render, e.g. for page 5 of 10:
 *
 *   [1, "…", 3, 4, 5, 6, 7, "…", 10]
 *
 * A window of `size` consecutive pages around the current one (shifted to
 * stay inside 1..totalPages), plus the first and last page, with "…" where
 * pages are skipped.
 */

export type PageItem = number | "…";

export function pageWindow(current: number, totalPages: number, size = 5): PageItem[] {
  if (totalPages <= 0) return [];
  const width = Math.min(size, totalPages);
  const half = Math.floor(width / 2);
  const start = Math.max(1, Math.min(current - half, totalPages - width));
  const end = start + width - 1;
  const items: PageItem[] = [];
  if (start > 1) {
    items.push(1);
    if (start > 2) items.push("…");
  }
  for (let p = start; p <= end; p++) items.push(p);
  if (end < totalPages) {
    if (end < totalPages - 1) items.push("…");
    items.push(totalPages);
  }
  return items;
}
