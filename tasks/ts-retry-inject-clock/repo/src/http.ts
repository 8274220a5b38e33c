/**
 * Retrying HTTP-like calls: retry 408, 429 and 5xx responses, honour `Retry-After`.
 */
import { HttpStatusError } from "./errors.ts";
import { retry, type RetryOptions } from "./retry.ts";

/** Statuses that are worth retrying. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599 && status !== 501);
}

/**
 * Milliseconds to wait for a `Retry-After` header: delta-seconds or an HTTP date relative to
 * `nowMs`. Unparseable values give undefined.
 */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** A minimal response shape. */
export interface StatusResponse {
  status: number;
  headers: { get(name: string): string | null };
}

/**
 * Calls `send` until it returns a non-retryable status. Retryable statuses are thrown as
 * {@linkcode HttpStatusError} internally; the last one is rethrown when retries run out.
 */
export function withHttpRetry<R extends StatusResponse>(send: () => Promise<R>, options: RetryOptions = {}): Promise<R> {
  return retry(async () => {
    const res = await send();
    if (isRetryableStatus(res.status)) throw new HttpStatusError(res.status, res.headers.get("retry-after"));
    return res;
  }, {
    retryOn: (error) => error instanceof HttpStatusError,
    delayFor: (error) => error instanceof HttpStatusError ? retryAfterMs(error.retryAfter, Date.now()) : undefined,
    ...options,
  });
}
