/** Time source abstraction so expiry logic can be tested deterministically. */
export interface Clock {
  /** Current time in milliseconds. */
  now(): number;
}

/** The real wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to; handy in tests. */
export class ManualClock implements Clock {
  constructor(private time = 0) {}

  now(): number {
    return this.time;
  }

  /** Move the clock forward by `ms` milliseconds. */
  advance(ms: number): void {
    if (ms < 0) throw new RangeError("clock cannot go backwards");
    this.time += ms;
  }
}
