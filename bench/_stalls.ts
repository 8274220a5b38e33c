/**
 * Event-loop stalls: a timer re-armed every millisecond records how late each firing was. A late
 * firing is time the loop spent on something else (a synchronous call, a long task, garbage
 * collection) or time the thread was not scheduled at all (a busy machine), so the same monitor on
 * an idle loop in the same run is the baseline.
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import { LineChild } from "./_lines.ts";
import { summarize } from "./_stats.ts";

const INTERVAL_MS = 1;

/** How late the monitor's timer fired, ms. */
export interface Stalls {
  max: number;
  p99: number;
  n: number;
  /**
   * With `causes`: firings over {@linkcode CAUSE_OVER_MS} late, their lateness in all, and how much
   * of it this thread ran and waited for a core (`/proc/thread-self/schedstat`).
   */
  causes?: { count: number; lateMs: number; ranMs: number; waitedMs: number };
}

/** Firings later than this count in {@linkcode Stalls.causes}, ms. */
export const CAUSE_OVER_MS = 20;

/** This thread's time on a core and waiting for one, ms (schedstat's first two fields). */
export function schedstat(): { ranMs: number; waitedMs: number } {
  const [ran, waited] = readFileSync("/proc/thread-self/schedstat", "utf8").split(" ").map(Number);
  return { ranMs: ran / 1e6, waitedMs: waited / 1e6 };
}

/** Watches the event loop from construction until {@linkcode StallMonitor.stop}. */
export class StallMonitor {
  readonly #late: number[] = [];
  #expected: number;
  #timer: ReturnType<typeof setTimeout>;
  /** With `causes`: the thread's schedstat at the last firing, and the sums so far. */
  #sched: { ranMs: number; waitedMs: number } | null;
  readonly #causes = { count: 0, lateMs: 0, ranMs: 0, waitedMs: 0 };

  /** `causes` (Linux) also reads the thread's schedstat at every firing, which costs CPU. */
  constructor(options: { causes?: boolean } = {}) {
    this.#sched = options.causes ? schedstat() : null;
    this.#expected = performance.now() + INTERVAL_MS;
    this.#timer = setTimeout(this.#tick, INTERVAL_MS);
  }

  #tick = (): void => {
    const now = performance.now();
    const late = Math.max(0, now - this.#expected);
    this.#late.push(late);
    if (this.#sched) {
      const sched = schedstat();
      if (late > CAUSE_OVER_MS) {
        this.#causes.count++;
        this.#causes.lateMs += late;
        this.#causes.ranMs += sched.ranMs - this.#sched.ranMs;
        this.#causes.waitedMs += sched.waitedMs - this.#sched.waitedMs;
      }
      this.#sched = sched;
    }
    this.#expected = now + INTERVAL_MS;
    this.#timer = setTimeout(this.#tick, INTERVAL_MS);
  };

  /** Stop and summarize. */
  stop(): Stalls {
    clearTimeout(this.#timer);
    if (this.#late.length === 0) return { max: 0, p99: 0, n: 0 };
    const sorted = [...this.#late].sort((a, b) => a - b);
    return {
      max: sorted[sorted.length - 1],
      p99: sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)],
      n: summarize(sorted).n,
      ...(this.#sched ? { causes: { ...this.#causes } } : {}),
    };
  }
}

/**
 * Stalls of an otherwise idle event loop over `ms`, the same-run baseline, and what `watch` (the
 * monitors a batch runs: this one and an RSS sampler) costs this process per ms of wall time.
 */
export async function idleStalls(
  ms: number,
  watch: () => () => void,
): Promise<{ stalls: Stalls; monitorCpuPerMs: number }> {
  const cpuBefore = cpuMs();
  const started = performance.now();
  const monitor = new StallMonitor();
  const stopOthers = watch();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const stalls = monitor.stop();
  stopOthers();
  return { stalls, monitorCpuPerMs: (cpuMs() - cpuBefore) / (performance.now() - started) };
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The same monitor in a process of its own (`_stall_monitor.ts`): its windows measure what the
 * machine imposes on a loop that does nothing else, beside a batch. Start it before moving into a
 * cgroup that counts children's CPU, so its own stays outside.
 */
export class MachineStalls {
  readonly #child: LineChild;

  private constructor(child: LineChild) {
    this.#child = child;
  }

  static start(): MachineStalls {
    const script = new URL("./_stall_monitor.ts", import.meta.url).pathname;
    return new MachineStalls(
      new LineChild(Deno.execPath(), ["run", "--quiet", "--no-prompt", "--no-config", script]),
    );
  }

  /** Begin a window. */
  async begin(): Promise<void> {
    await this.#child.send("start");
    await this.#child.read();
  }

  /** End the window and summarize it. */
  async end(): Promise<Stalls> {
    await this.#child.send("stop");
    return JSON.parse(await this.#child.read());
  }

  async close(): Promise<void> {
    await this.#child.close();
  }
}
