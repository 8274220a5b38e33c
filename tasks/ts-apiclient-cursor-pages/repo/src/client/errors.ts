/**
 * Errors raised by the client.
 */

/** A non-2xx response, after retries. */
export class ApiError extends Error {
  constructor(readonly status: number, readonly body: unknown, readonly path: string) {
    super(`GET ${path} failed with ${status}: ${JSON.stringify(body)}`);
    this.name = "ApiError";
  }
}
