/**
 * Samples on every core: a pool of Deno worker threads in this process, each running samples with
 * its own event loop (`_pool_worker.ts`), while this thread stays the one writer of records and
 * summary. A worker inherits the process's permissions, so the pool needs no flag beyond those of a
 * one-thread run and starts no process of its own. Records come back as the JSON lines the workers
 * wrote, so a run on N threads writes the same bytes per record as a run on one.
 */
import type { EnvironmentSpec } from "../agent/environment.ts";
import {
  type QueueRunSpec,
  type RemoteContext,
  type RemoteRunner,
  runSpec,
  type SampleJob,
} from "./remote_run.ts";
import { failedSample } from "./sample.ts";

/** What the main thread sends a pool worker. */
export type PoolRequest =
  | {
    kind: "init";
    runId: string;
    environment: EnvironmentSpec;
    run: QueueRunSpec;
    keepWorkspaces: boolean;
  }
  | { kind: "job"; job: SampleJob }
  | { kind: "abort" };

/** What a pool worker answers, one message per job. */
export type PoolReply =
  | { kind: "record"; episode_id: string; line: string }
  | { kind: "interrupted"; episode_id: string }
  | { kind: "error"; episode_id: string; error: { code: string; message: string } };

/** Options of {@linkcode workerPoolRunner}. */
export interface PoolOptions {
  /** Worker threads (at least 1). */
  workers: number;
  /** Samples at once over all threads (each thread gets its share). */
  concurrency: number;
  keepWorkspaces?: boolean;
}

/** The worker threads' module. Starting one needs read permission for this file (only). */
export const POOL_WORKER_MODULE: URL = new URL("./_pool_worker.ts", import.meta.url);

/**
 * Whether worker threads can start here: the process may read their module (a run under narrow
 * flags names it; see `src/cli/permissions.ts`). Without it a run stays on one thread.
 */
export function poolAvailable(): boolean {
  if (POOL_WORKER_MODULE.protocol !== "file:") return true;
  try {
    const path = decodeURIComponent(POOL_WORKER_MODULE.pathname);
    return Deno.permissions.querySync({ name: "read", path }).state === "granted";
  } catch {
    return false;
  }
}

/** Threads worth starting: one per core, at most one per sample running at once. */
export function defaultWorkers(concurrency: number): number {
  return Math.max(1, Math.min(navigator.hardwareConcurrency || 1, concurrency));
}

/**
 * Run the samples on `options.workers` threads; `deliver` gets each record and its line in the
 * order they finish. A thread that dies takes its samples with it: they come back as
 * `environment_error` records, and the remaining threads go on. Aborting the signal stops handing
 * out samples and ends the running ones as `interrupted` (not delivered, as in a one-thread run).
 */
export function workerPoolRunner(context: RemoteContext, options: PoolOptions): RemoteRunner {
  return async (jobs, deliver, signal) => {
    if (jobs.length === 0) return;
    const run = runSpec(context.config);
    const threads = Math.max(1, Math.min(options.workers, options.concurrency, jobs.length));
    const pending = [...jobs];
    const byEpisode = new Map(jobs.map((j) => [j.episode_id, j]));
    const init: PoolRequest = {
      kind: "init",
      runId: context.config.run_id,
      environment: context.environment.spec(),
      run: run satisfies QueueRunSpec,
      keepWorkspaces: options.keepWorkspaces ?? false,
    };
    let outstanding = jobs.length;
    let finished!: () => void;
    const allDone = new Promise<void>((resolve) => (finished = resolve));
    // Delivered one after another, in the order replies arrive.
    let delivering = Promise.resolve();
    let failure: unknown = null;
    const settle = (episode: string, body: () => Promise<void>) => {
      delivering = delivering.then(body).catch((error) => {
        failure ??= error;
      }).finally(() => {
        byEpisode.delete(episode);
        if (--outstanding === 0) finished();
      });
    };
    const failed = (job: SampleJob, error: { code: string; message: string }) =>
      settle(job.episode_id, async () => {
        const task = context.environment.task(job.task_id);
        const record = await failedSample(
          context.environment,
          task,
          context.policyFor(task, job.sample),
          {
            run_id: context.config.run_id,
            episode_id: job.episode_id,
            task_id: job.task_id,
            sample: job.sample,
            group_id: job.group_id,
          },
          error,
          { limits: context.config.limits, training: context.config.training },
        );
        await deliver(record, JSON.stringify(record));
      });
    const skip = (job: SampleJob) => settle(job.episode_id, () => Promise.resolve());

    const workers = Array.from({ length: threads }, (_, i) => {
      const share = Math.floor(options.concurrency / threads) +
        (i < options.concurrency % threads ? 1 : 0);
      const worker = new Worker(POOL_WORKER_MODULE, { type: "module", name: `patchgym-pool-${i}` });
      const running = new Set<string>();
      let alive = true;
      const feed = () => {
        while (alive && !signal.aborted && running.size < share && pending.length > 0) {
          const job = pending.shift()!;
          running.add(job.episode_id);
          worker.postMessage({ kind: "job", job } satisfies PoolRequest);
        }
      };
      worker.onmessage = (event: MessageEvent<PoolReply>) => {
        const reply = event.data;
        const job = byEpisode.get(reply.episode_id);
        running.delete(reply.episode_id);
        if (job) {
          if (reply.kind === "record") {
            settle(job.episode_id, () => deliver(JSON.parse(reply.line), reply.line));
          } else if (reply.kind === "interrupted") {
            skip(job);
          } else {
            failed(job, reply.error);
          }
        }
        feed();
      };
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        alive = false;
        const error = {
          code: "worker_failed",
          message: `A rollout worker thread failed: ${event.message}`,
        };
        for (const episode of running) failed(byEpisode.get(episode)!, error);
        running.clear();
        worker.terminate();
        // With no thread left, what is still waiting cannot run either.
        if (!pool.some((w) => w.alive())) {
          for (const job of pending.splice(0)) failed(job, error);
        }
      };
      worker.postMessage(init);
      return { worker, feed, alive: () => alive, running };
    });
    const pool = workers;
    const onAbort = () => {
      for (const { worker } of pool) worker.postMessage({ kind: "abort" } satisfies PoolRequest);
      // Samples never handed out are not run.
      for (const job of pending.splice(0)) skip(job);
    };
    signal.addEventListener("abort", onAbort);
    try {
      if (signal.aborted) onAbort();
      for (const w of pool) w.feed();
      await allDone;
      await delivering;
      if (failure) throw failure;
    } finally {
      signal.removeEventListener("abort", onAbort);
      for (const { worker } of pool) worker.terminate();
    }
  };
}
