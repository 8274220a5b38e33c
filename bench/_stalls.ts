/**
 * Event-loop stalls: a timer re-armed every millisecond records how late each firing was. A late
 * firing is time the loop spent on something else (a synchronous call, a long task, garbage
 * collection) or time the thread was not scheduled at all (a busy machine), so the same monitor on
 * an idle loop in the same run is the baseline.
 */
import process from "node:process";
import { LineChild } from "./_lines.ts";
import { summarize } from "./_stats.ts";

const INTERVAL_MS = 1;

/** How late the monitor's timer fired, ms. */
export interface Stalls {
  max: number;
  p99: number;
  n: number;
}

/** Watches the event loop from construction until {@linkcode StallMonitor.stop}. */
export class StallMonitor {
  readonly #late: number[] = [];
  #expected: number;
  #timer: ReturnType<typeof setTimeout>;

  constructor() {
    this.#expected = performance.now() + INTERVAL_MS;
    this.#timer = setTimeout(this.#tick, INTERVAL_MS);
  }

  #tick = (): void => {
    const now = performance.now();
    this.#late.push(Math.max(0, now - this.#expected));
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
