/**
 * Token bucket: holds up to `capacity` tokens and refills continuously at
 * `refillPerSecond`. Each request removes tokens; a request that would take
 * the bucket below zero is rejected and removes nothing.
 */
import { Clock, systemClock } from "./clock.ts";

export interface BucketOptions {
  capacity: number;
  refillPerSecond: number;
  clock?: Clock;
}

export class TokenBucket {
  readonly capacity: number;
  readonly refillPerSecond: number;
  #clock: Clock;
  #tokens: number;
  #updatedAt: number;

  constructor(options: BucketOptions) {
    if (!(options.capacity > 0)) throw new RangeError("capacity must be positive");
    if (!(options.refillPerSecond > 0)) throw new RangeError("refillPerSecond must be positive");
    this.capacity = options.capacity;
    this.refillPerSecond = options.refillPerSecond;
    this.#clock = options.clock ?? systemClock;
    this.#tokens = options.capacity;
    this.#updatedAt = this.#clock.now();
  }

  #refill(): void {
    const now = this.#clock.now();
    const elapsed = Math.max(0, now - this.#updatedAt);
    this.#tokens = Math.min(this.capacity, this.#tokens + (elapsed * this.refillPerSecond) / 1000);
    this.#updatedAt = now;
  }

  /** Tokens currently available (may be fractional). */
  available(): number {
    this.#refill();
    return this.#tokens;
  }

  /** Remove `n` tokens if available; returns whether it succeeded. */
  tryRemove(n = 1): boolean {
    this.#refill();
    if (n > this.#tokens) return false;
    this.#tokens -= n;
    return true;
  }

  /** Whether the bucket is full (an idle bucket can be dropped). */
  isFull(): boolean {
    return this.available() >= this.capacity;
  }
}
