/**
 * backoff: retries with exponential backoff, jitter and deadlines.
 */
export { HttpStatusError, RetryDeadlineError } from "./errors.ts";
export { DEFAULT_RETRY, retry } from "./retry.ts";
export type { Jitter, RetryInfo, RetryOptions } from "./retry.ts";
export { isRetryableStatus, retryAfterMs, withHttpRetry } from "./http.ts";
export type { StatusResponse } from "./http.ts";
