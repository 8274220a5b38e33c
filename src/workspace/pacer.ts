/**
 * Synchronous file-system calls in slices: on a small tree a `lstat` or a read costs a few
 * microseconds done synchronously and ten times that as an asynchronous call (a hand-off to Deno's
 * blocking thread pool and back), so tree walks run synchronously, but hand the event loop back
 * after every slice so that a huge tree cannot stall the other episodes.
 */

/** Slice length of {@linkcode Pacer} by default, ms. */
export const DEFAULT_SLICE_MS = 1;

/** Tells a synchronous loop when to let the event loop run. */
export class Pacer {
  readonly #sliceMs: number;
  readonly #now: () => number;
  #since: number;

  /** `now`: the clock slices are measured on, in ms (tests give their own). */
  constructor(sliceMs = DEFAULT_SLICE_MS, now: () => number = () => performance.now()) {
    this.#sliceMs = sliceMs;
    this.#now = now;
    this.#since = now();
  }

  /**
   * Null while the current slice lasts; once it is over, a promise that resolves after the event
   * loop has had a turn (timers and I/O of other episodes), starting the next slice.
   */
  pause(): Promise<void> | null {
    if (this.#now() - this.#since < this.#sliceMs) return null;
    return new Promise((resolve) =>
      setTimeout(() => {
        this.#since = this.#now();
        resolve();
      }, 0)
    );
  }
}
