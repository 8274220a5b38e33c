/**
 * A run's timeout, counted in the run's own time. When the timeout comes, the time the run spent
 * waiting for a CPU (on a machine busier than its cores: other programs, or a trainer's data
 * loaders, beside patchgym's runs at their lower priority) is given again, so a run starved by
 * others is judged as it would be on a quiet machine. A run that sleeps or hangs waits for no CPU
 * and ends at its timeout as before; on a quiet machine nothing changes.
 *
 * At each look (the timeout, then the end of each time given), over the time since the last one:
 * - the run's tasks' waits for a CPU, added up (threads that take turns, as Python's under its
 *   lock, each wait a part), are given again;
 * - a run that used the CPU meanwhile (at least a hundredth of that time) is given the share of
 *   that time in which the machine had no CPU to spare (on average, less than one CPU idle), when
 *   that is more: the waits of threads and children that ended went with them;
 * - never more than the time since the last look (tasks that wait side by side count once), nor
 *   more than the CPU time its timeout still leaves it: a run's own time is at least its CPU time,
 *   so a busy loop ends at its timeout, before the CPU limit a process of it has (a second more).
 * Less than a hundredth of the timeout (and 10 ms) ends the clock, as does a run whose CPU time is
 * not counted (no cgroup that counts it: the timeout is then wall-clock time). In all, a run gets
 * at most {@linkcode WAIT_GUARD} times its timeout, whatever it waited. The machine's idle time is
 * first read at a tenth of the timeout (a run that ends sooner costs no reading), and its share
 * over the rest of the timeout stands for the whole.
 */

/**
 * The most a run's clock runs, as a multiple of its timeout, however long it waited: a run at
 * niceness 10 beside a busy program per core at niceness 0 gets about a tenth of a core.
 */
export const WAIT_GUARD = 10;

/** The least time given again, and the least CPU use that counts, as a share of the timeout. */
const LEAST_SHARE = 1 / 100;

/** When the first reading is taken, as a share of the timeout. */
const FIRST_READING = 1 / 10;

/** What a run's clock reads at a look: running totals, in ms. */
export interface RunWaits {
  /** How long the run's live tasks have waited for a CPU, added up. */
  waited: number;
  /**
   * The run's CPU time as its cgroup counts it (every process it ever held, however it ended);
   * null where it is not counted: nothing is then given back, since a run could hide the CPU it
   * uses (children reaped by no one count in no process's times).
   */
  cpu: number | null;
  /** How long the machine's CPUs have been idle, added up; null where that cannot be read. */
  machineIdle: number | null;
}

export class RunClock {
  readonly #timeoutMs: number;
  readonly #read: () => Promise<RunWaits | null>;
  readonly #expire: () => void;
  readonly #now: () => number;
  readonly #guardAt: number;
  #credited = 0;
  /** The run's totals at the last look (zero at its start). */
  #last = { waited: 0, cpu: 0 };
  /** The machine's idle time at the last reading that had it, and when that was. */
  #machineSince: { idle: number; at: number } | null = null;
  #sinceLast: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopped = false;

  /**
   * Start the clock of a run whose timeout is `timeoutMs`. `read` says what the run has waited
   * and used so far (null: it cannot say, and nothing is given); `expire` is called once its own
   * time is up.
   */
  constructor(
    timeoutMs: number,
    read: () => Promise<RunWaits | null>,
    expire: () => void,
    now: () => number = () => performance.now(),
  ) {
    this.#timeoutMs = timeoutMs;
    this.#read = read;
    this.#expire = expire;
    this.#now = now;
    this.#guardAt = now() + timeoutMs * WAIT_GUARD;
    this.#sinceLast = timeoutMs;
    const first = timeoutMs * FIRST_READING;
    this.#timer = setTimeout(() => this.#firstReading(first), first);
  }

  /** The time given again so far, ms (0 unless the timeout came and the run had waited). */
  get creditedMs(): number {
    return this.#credited;
  }

  /** The run ended: the clock stops, and `expire` is not called. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
  }

  async #firstReading(at: number): Promise<void> {
    const now = await this.#read().catch(() => null);
    if (this.#stopped) return;
    if (now !== null) this.#readMachine(now);
    this.#timer = setTimeout(() => this.#look(), Math.max(0, this.#timeoutMs - at));
  }

  /**
   * The share of the time since the last look in which the machine had no CPU to spare: 1 with
   * no CPU idle on average, 0 with one or more.
   */
  #busyShare(now: RunWaits): number {
    const since = this.#machineSince;
    const elapsed = since ? this.#now() - since.at : 0;
    if (now.machineIdle === null || !since || elapsed <= 0) return 0;
    const idleCpus = (now.machineIdle - since.idle) / elapsed;
    return Math.min(1, Math.max(0, 1 - idleCpus));
  }

  /** Keep the machine's idle time of `now`, where it has it, for the next look's share. */
  #readMachine(now: RunWaits): void {
    if (now.machineIdle !== null) this.#machineSince = { idle: now.machineIdle, at: this.#now() };
  }

  async #look(): Promise<void> {
    const now = await this.#read().catch(() => null);
    if (this.#stopped) return;
    const least = Math.max(10, this.#timeoutMs * LEAST_SHARE);
    let more = 0;
    if (now !== null && now.cpu !== null) {
      const used = now.cpu - this.#last.cpu;
      const busy = used >= this.#sinceLast * LEAST_SHARE ? this.#busyShare(now) : 0;
      more = Math.min(
        Math.max(now.waited - this.#last.waited, busy * this.#sinceLast, 0),
        this.#sinceLast,
        this.#timeoutMs - now.cpu,
        this.#guardAt - this.#now(),
      );
      this.#last = { waited: now.waited, cpu: now.cpu };
      this.#readMachine(now);
    }
    if (more < least) {
      this.#stopped = true;
      this.#expire();
      return;
    }
    this.#credited += more;
    this.#sinceLast = more;
    this.#timer = setTimeout(() => this.#look(), more);
  }
}
