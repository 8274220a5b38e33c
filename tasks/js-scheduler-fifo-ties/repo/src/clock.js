/** A clock that moves only when told to. */
export class ManualClock {
  constructor(start = 0) {
    this.time = start;
  }

  now() {
    return this.time;
  }

  advance(ms) {
    if (!(ms >= 0)) throw new RangeError(`Cannot move the clock back: ${ms}`);
    this.time += ms;
    return this.time;
  }
}
