/**
 * Route handlers of the fake API. `/users` pages with `page`/`per_page` and RFC 8288 `Link`
 * headers; `/events` pages with an opaque cursor in the body (`next_cursor`), like many
 * newer APIs do.
 */
import { type ApiRequest, type ApiResponse, json } from "./http.ts";
import type { AuditEvent, User } from "./dataset.ts";

/** Largest page the server hands out. */
export const MAX_PAGE_SIZE = 50;

/** `GET /users?page=N&per_page=M[&team=T]`. */
export function listUsers(users: User[], req: ApiRequest): ApiResponse {
  const page = Number(req.query.page ?? "1");
  const perPage = Math.min(Number(req.query.per_page ?? "10"), MAX_PAGE_SIZE);
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) || perPage < 1) {
    return json(400, { error: "page and per_page must be positive integers" });
  }
  const filtered = req.query.team ? users.filter((u) => u.team === req.query.team) : users;
  const items = filtered.slice((page - 1) * perPage, page * perPage);
  const last = Math.max(1, Math.ceil(filtered.length / perPage));
  const link = (p: number, rel: string) => {
    const params = new URLSearchParams({ ...req.query, page: String(p), per_page: String(perPage) });
    return `</users?${params}>; rel="${rel}"`;
  };
  const links = [link(1, "first"), link(last, "last")];
  if (page < last) links.push(link(page + 1, "next"));
  if (page > 1) links.push(link(page - 1, "prev"));
  return json(200, items, { link: links.join(", "), "x-total-count": String(filtered.length) });
}

/** `GET /events?limit=M[&cursor=C][&action=A]`; the cursor is the base64 of the last id served. */
export function listEvents(events: AuditEvent[], req: ApiRequest): ApiResponse {
  const limit = Math.min(Number(req.query.limit ?? "10"), MAX_PAGE_SIZE);
  if (!Number.isInteger(limit) || limit < 1) return json(400, { error: "limit must be a positive integer" });
  const filtered = req.query.action ? events.filter((e) => e.action === req.query.action) : events;
  let start = 0;
  if (req.query.cursor !== undefined) {
    let after: string;
    try {
      after = atob(req.query.cursor);
    } catch {
      return json(400, { error: "invalid cursor" });
    }
    start = filtered.findIndex((e) => e.id === after) + 1;
    if (start === 0) return json(400, { error: "invalid cursor" });
  }
  const data = filtered.slice(start, start + limit);
  const more = start + limit < filtered.length;
  return json(200, { data, next_cursor: more ? btoa(data[data.length - 1].id) : null });
}
