/**
 * How many sandboxed runs start and run at once. Test runs are short and use a core each while they
 * run; started all at once (256 episodes' runs on 2 cores), they only take turns on the cores, each
 * takes a hundred times its CPU in wall time (and may outlast its timeout), and the orchestrator's
 * own thread waits among them for a core. Runs beyond the slots wait their turn, first come first
 * served, before their process starts (so their timeout starts with it). A run that has held its
 * slot for {@linkcode HOLD_MS} gives it up and runs on: a command that sleeps or hangs until its
 * timeout delays the others by that much at most, and slots can never all be held for long.
 */

/** After this long, a run's slot goes to the next waiting run, ms. */
export const HOLD_MS = 1000;

/** Runs at once per core by default: enough to cover a run's start and its waits, few enough. */
export const RUNS_PER_CORE = 4;

/** Runs at once by default on this machine: {@linkcode RUNS_PER_CORE} per core. */
export function defaultRunSlots(): number {
  return RUNS_PER_CORE * Math.max(1, navigator.hardwareConcurrency || 1);
}

/** Slots shared by the runs of one thread. */
export class RunSlots {
  readonly #size: number;
  #free: number;
  readonly #waiting: (() => void)[] = [];
  readonly #holdMs: number;

  constructor(slots: number, options: { holdMs?: number } = {}) {
    if (!Number.isInteger(slots) || slots < 1) {
      throw new RangeError(`run slots must be a whole number of at least 1, not ${slots}`);
    }
    this.#size = slots;
    this.#free = slots;
    this.#holdMs = options.holdMs ?? HOLD_MS;
  }

  /** Runs that may hold a slot at once. */
  get size(): number {
    return this.#size;
  }

  /** Runs waiting for a slot now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Waits for a slot; the function it resolves to gives the slot up (once; later calls do nothing).
   * Rejects with `signal`'s reason, holding no slot, when `signal` is aborted before a slot came.
   */
  async take(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.#free > 0 && this.#waiting.length === 0) this.#free--;
    // A slot given up goes straight to the oldest waiting run, never back to the count.
    else await this.#wait(signal);
    return this.#held();
  }

  /** A slot if one is free now and no run waits for one (as {@linkcode take}), else null. */
  tryTake(): (() => void) | null {
    if (this.#free === 0 || this.#waiting.length > 0) return null;
    this.#free--;
    return this.#held();
  }

  /** The function that gives a slot just taken up, at once or after the hold time. */
  #held(): () => void {
    let held = true;
    const give = (): void => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    };
    const timer = setTimeout(give, this.#holdMs);
    return give;
  }

  /** Waits in line until a slot is handed over, or leaves the line when `signal` aborts. */
  #wait(signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const granted = (): void => {
        signal?.removeEventListener("abort", aborted);
        resolve();
      };
      // Only while still in line: a slot once handed over is the run's, and given back by it.
      const aborted = (): void => {
        const at = this.#waiting.indexOf(granted);
        if (at < 0) return;
        this.#waiting.splice(at, 1);
        reject(signal!.reason);
      };
      this.#waiting.push(granted);
      signal?.addEventListener("abort", aborted, { once: true });
    });
  }
}
