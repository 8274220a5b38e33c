/**
 * A run's timeout, counted in the run's own time. When the timeout comes, the time the run's
 * processes spent waiting for a CPU (on a machine busier than its cores: other programs, or a
 * trainer's data loaders, beside patchgym's runs at their lower priority) is given again, so a
 * run starved by others is judged as it would be on a quiet machine. A run that sleeps or hangs
 * waits for no CPU and ends at its timeout as before; on a quiet machine nothing changes.
 *
 * The wait is the run's tasks' waits added up (threads that take turns, as Python's under its
 * lock, each wait a part), since the last look, and never more than the time since the last look:
 * tasks that wait side by side (more busy processes than cores) are given that time once. In all,
 * a run gets at most {@linkcode WAIT_GUARD} times its timeout, whatever it waited.
 */

/** The most a run's clock runs, as a multiple of its timeout, however long it waited for a CPU. */
export const WAIT_GUARD = 5;

/** The least wait given again, as a share of the timeout (and at least 10 ms): fewer checks. */
const LEAST_CREDIT = 1 / 100;

export class RunClock {
  readonly #timeoutMs: number;
  readonly #waited: () => Promise<number>;
  readonly #expire: () => void;
  readonly #now: () => number;
  readonly #guardAt: number;
  #credited = 0;
  /** The wait read at the last look, and how long before this look that was (ms). */
  #lastWaited = 0;
  #sinceLast: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  /**
   * Start the clock of a run whose timeout is `timeoutMs`. `waited` says how long (ms) the run's
   * tasks have waited for a CPU so far, added up; `expire` is called once its own time is up.
   */
  constructor(
    timeoutMs: number,
    waited: () => Promise<number>,
    expire: () => void,
    now: () => number = () => performance.now(),
  ) {
    this.#timeoutMs = timeoutMs;
    this.#waited = waited;
    this.#expire = expire;
    this.#now = now;
    this.#guardAt = now() + timeoutMs * WAIT_GUARD;
    this.#sinceLast = timeoutMs;
    this.#timer = setTimeout(() => this.#due(), timeoutMs);
  }

  /** The wait given again so far, ms (0 unless the timeout came and the run had waited). */
  get creditedMs(): number {
    return this.#credited;
  }

  /** The run ended: the clock stops, and `expire` is not called. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  async #due(): Promise<void> {
    const waited = await this.#waited().catch(() => 0);
    if (this.#stopped) return;
    const least = Math.max(10, this.#timeoutMs * LEAST_CREDIT);
    // Tasks that ended since the last look took their waits along: the sum may even fall.
    const more = Math.min(
      Math.max(0, waited - this.#lastWaited),
      this.#sinceLast,
      this.#guardAt - this.#now(),
    );
    if (more < least) {
      this.#stopped = true;
      this.#expire();
      return;
    }
    this.#credited += more;
    this.#lastWaited = waited;
    this.#sinceLast = more;
    this.#timer = setTimeout(() => this.#due(), more);
  }
}
