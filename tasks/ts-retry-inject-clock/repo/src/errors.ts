/**
 * Errors raised by the retry helpers.
 */

/** The next wait would overrun the overall deadline; `cause` is the last failure. */
export class RetryDeadlineError extends Error {
  constructor(readonly attempts: number, readonly elapsedMs: number, options: { cause: unknown }) {
    super(`gave up after ${attempts} attempt(s) and ${elapsedMs} ms: deadline would be exceeded`, options);
    this.name = "RetryDeadlineError";
  }
}

/** An HTTP response with a status that should not be treated as success. */
export class HttpStatusError extends Error {
  constructor(readonly status: number, readonly retryAfter: string | null = null) {
    super(`HTTP ${status}`);
    this.name = "HttpStatusError";
  }
}
