/** Timing loops and summary statistics for the benchmark suite. */

/** One trial of a measured case: does its setup, times its own region and returns that in ms. */
export type Trial = () => number | Promise<number>;

/** How long to sample. */
export interface SampleOptions {
  /** Untimed trials per case first (JIT, page cache, lazy imports). */
  warmup?: number;
  /** Timed trials per case, at least. */
  min?: number;
  /** Timed trials per case, at most. */
  max?: number;
  /** Stop after `min` once the timed loop has run this long (ms, wall clock). */
  budgetMs?: number;
  /** Trials of one case in a row before switching to the next (default 10). */
  block?: number;
}

/** Median, 95th percentile and count of a sample. */
export interface Summary {
  median: number;
  p95: number;
  n: number;
  mean: number;
}

/** Run `body` and return how long it took in ms. */
export function timed(body: () => unknown): number {
  const started = performance.now();
  body();
  return performance.now() - started;
}

/** Await `body` and return how long it took in ms. */
export async function timedAsync(body: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await body();
  return performance.now() - started;
}

/**
 * Sample several cases in alternating blocks (A x block, B x block, A x block, ...) so that a case
 * and its baseline see the same machine state (page cache, file-system journal, CPU frequency).
 * Blocks rather than single trials: on this kind of VM a few syscalls right after the thread sat
 * idle (e.g. waiting for a baseline's child process) cost several times more, and strict
 * alternation would charge that to the in-process case. Returns the durations per case.
 */
export async function sampleCases(
  cases: Trial[],
  options: SampleOptions = {},
): Promise<number[][]> {
  const { warmup = 3, min = 20, max = 200, budgetMs = 1000, block = 10 } = options;
  for (const trial of cases) for (let i = 0; i < warmup; i++) await trial();
  const samples = cases.map((): number[] => []);
  const started = performance.now();
  while (samples[0].length < max) {
    if (samples[0].length >= min && performance.now() - started >= budgetMs) break;
    const count = Math.min(block, max - samples[0].length);
    for (const [index, trial] of cases.entries()) {
      for (let i = 0; i < count; i++) samples[index].push(await trial());
    }
  }
  return samples;
}

/** Median, nearest-rank 95th percentile and mean of `values` (not empty). */
export function summarize(values: number[]): Summary {
  if (values.length === 0) throw new Error("Cannot summarize an empty sample");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)];
  const mean = sorted.reduce((sum, v) => sum + v, 0) / sorted.length;
  return { median, p95, n: sorted.length, mean };
}
