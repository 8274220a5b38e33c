/**
 * Time source for the box office. Production uses {@linkcode systemClock}; tests use
 * {@linkcode ManualClock} so that hold expiry can be exercised without waiting.
 */

/** Anything that can tell the current time in epoch milliseconds. */
export interface Clock {
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  constructor(private current = 0) {}

  now(): number {
    return this.current;
  }

  /** Moves time forward by `ms` milliseconds. */
  advance(ms: number): void {
    if (ms < 0) throw new RangeError("time cannot go backwards");
    this.current += ms;
  }
}
