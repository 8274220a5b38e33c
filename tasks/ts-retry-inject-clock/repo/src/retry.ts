/**
 * Retrying async operations with exponential backoff, optional jitter and an overall deadline.
 *
 * The delay before retry n (n = 1 for the first retry) is `baseDelayMs * factor^(n-1)`, capped at
 * `maxDelayMs`, then jittered:
 * - `none`: the capped delay,
 * - `full`: uniformly random in [0, delay) (AWS "full jitter"),
 * - `equal`: delay/2 plus a random half.
 */
import { RetryDeadlineError } from "./errors.ts";

/** Jitter strategies. */
export type Jitter = "none" | "full" | "equal";

/** What the `onRetry` hook receives before each wait. */
export interface RetryInfo {
  /** The attempt that just failed, from 1. */
  attempt: number;
  delayMs: number;
  error: unknown;
}

/** Retry settings; every field is optional. */
export interface RetryOptions {
  /** Retries after the first attempt; default 3. */
  retries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  factor?: number;
  jitter?: Jitter;
  /** Give up instead of waiting past this many ms since the first attempt. */
  deadlineMs?: number;
  /** Whether an error is worth retrying; default: always. */
  retryOn?: (error: unknown, attempt: number) => boolean;
  /** Asked for the delay before the computed one is used; return undefined to keep it. */
  delayFor?: (error: unknown) => number | undefined;
  onRetry?: (info: RetryInfo) => void;
}

/** Defaults for {@linkcode RetryOptions}. */
export const DEFAULT_RETRY = {
  retries: 3,
  baseDelayMs: 100,
  maxDelayMs: 10_000,
  factor: 2,
  jitter: "full" as Jitter,
};

/** Runs `fn` until it resolves, retrying failures as configured. */
export async function retry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const o = { ...DEFAULT_RETRY, ...options };
  const started = Date.now();
  for (let attempt = 1;; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (attempt > o.retries || (o.retryOn && !o.retryOn(error, attempt))) throw error;
      let delay = Math.min(o.maxDelayMs, o.baseDelayMs * o.factor ** (attempt - 1));
      if (o.jitter === "full") delay = Math.floor(Math.random() * delay);
      else if (o.jitter === "equal") delay = Math.floor(delay / 2 + Math.random() * (delay / 2));
      const override = o.delayFor?.(error);
      if (override !== undefined) delay = override;
      const elapsed = Date.now() - started;
      if (o.deadlineMs !== undefined && elapsed + delay > o.deadlineMs) {
        throw new RetryDeadlineError(attempt, elapsed, { cause: error });
      }
      o.onRetry?.({ attempt, delayMs: delay, error });
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
