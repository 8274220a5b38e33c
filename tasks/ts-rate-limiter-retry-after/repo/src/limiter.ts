/** Per-key rate limiting on top of token buckets. */
import { TokenBucket } from "./bucket.ts";
import { Clock, systemClock } from "./clock.ts";

export interface LimiterOptions {
  /** Burst size: tokens per key. */
  limit: number;
  /** Sustained rate in requests per second. */
  refillPerSecond: number;
  clock?: Clock;
}

export interface CheckResult {
  allowed: boolean;
  /** Tokens left after this request (may be fractional). */
  remaining: number;
  /** The configured burst size. */
  limit: number;
}

export class RateLimiter {
  #buckets = new Map<string, TokenBucket>();
  #options: Required<LimiterOptions>;

  constructor(options: LimiterOptions) {
    this.#options = { clock: systemClock, ...options };
  }

  #bucket(key: string): TokenBucket {
    let bucket = this.#buckets.get(key);
    if (!bucket) {
      const { limit, refillPerSecond, clock } = this.#options;
      bucket = new TokenBucket({ capacity: limit, refillPerSecond, clock });
      this.#buckets.set(key, bucket);
    }
    return bucket;
  }

  /** Try to spend `cost` tokens for `key`. */
  check(key: string, cost = 1): CheckResult {
    const bucket = this.#bucket(key);
    const allowed = bucket.tryRemove(cost);
    return { allowed, remaining: bucket.available(), limit: this.#options.limit };
  }

  /** Forget a key (its next request starts with a full bucket). */
  reset(key: string): void {
    this.#buckets.delete(key);
  }

  /** Drop buckets that have fully refilled; returns how many were dropped. */
  prune(): number {
    let dropped = 0;
    for (const [key, bucket] of this.#buckets) {
      if (bucket.isFull()) {
        this.#buckets.delete(key);
        dropped++;
      }
    }
    return dropped;
  }

  get trackedKeys(): number {
    return this.#buckets.size;
  }
}
