/**
 * pagerkit: a small API client with pagination helpers, and an in-memory fake server to test it.
 */
export type { ApiRequest, ApiResponse } from "./server/http.ts";
export { FakeServer } from "./server/fake_server.ts";
export type { FakeServerOptions } from "./server/fake_server.ts";
export { MAX_PAGE_SIZE } from "./server/routes.ts";
export type { AuditEvent, User } from "./server/dataset.ts";
export { InMemoryTransport } from "./client/transport.ts";
export type { Transport } from "./client/transport.ts";
export { ApiClient } from "./client/api_client.ts";
export type { ClientOptions } from "./client/api_client.ts";
export { ApiError } from "./client/errors.ts";
export { parseLinkHeader, splitTarget } from "./client/link_header.ts";
export { collect, paginate } from "./client/paginate.ts";
export type { PaginateOptions } from "./client/paginate.ts";
