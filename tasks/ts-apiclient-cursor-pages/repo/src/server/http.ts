/**
 * The tiny HTTP model shared by the fake server and the client: no sockets, just values.
 */

/** A request as the client sends it. */
export interface ApiRequest {
  method: "GET";
  /** Path without query, e.g. `/users`. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
}

/** A response as the server returns it; `body` is already-parsed JSON. */
export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Builds a JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): ApiResponse {
  return { status, headers: { "content-type": "application/json", ...headers }, body };
}
