/**
 * Samples on every core: a pool of Deno worker threads in this process, each running samples with
 * its own event loop (`_pool_worker.ts`), while this thread stays the one writer of records and
 * summary. A worker inherits the process's permissions, so the pool needs no flag beyond those of a
 * one-thread run and starts no process of its own. Records come back as the JSON lines the workers
 * wrote, so a run on N threads writes the same bytes per record as a run on one, each with its
 * digest (`digest.ts`), made by the worker: this thread does not parse them.
 *
 * A {@linkcode WorkerPool} outlives one run: its threads load their modules and open the
 * environment once, and every later run on it finds them ready, their code already compiled (a
 * fresh thread runs its first episodes cold, and on a many-core machine with a few episodes per
 * thread that start-up is most of a run). {@linkcode workerPoolRunner} is the one-run form.
 */
import type { Environment, EnvironmentSpec } from "../agent/environment.ts";
import {
  type QueueRunSpec,
  type RemoteContext,
  type RemoteRunner,
  runSpec,
  type SampleJob,
} from "./remote_run.ts";
import { type RecordDigest, recordLine } from "../trajectory/digest.ts";
import { failedSample } from "./sample.ts";

/** What the main thread sends a pool worker. */
export type PoolRequest =
  | { kind: "init"; environment: EnvironmentSpec; spawnerThread: boolean }
  | { kind: "batch"; batch: number; runId: string; run: QueueRunSpec; keepWorkspaces: boolean }
  | { kind: "job"; batch: number; job: SampleJob }
  | { kind: "abort"; batch: number };

/** What a pool worker answers: that its set-up is done, then one message per job. */
export type PoolReply =
  | { kind: "ready" }
  | { kind: "record"; batch: number; episode_id: string; line: string; digest: RecordDigest }
  | { kind: "interrupted"; batch: number; episode_id: string }
  | {
    kind: "error";
    batch: number;
    episode_id: string;
    error: { code: string; message: string };
  };

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

/** What a run on the pool does with one thread's replies and its death. */
interface BatchHandler {
  reply(thread: Thread, reply: Exclude<PoolReply, { kind: "ready" }>): void;
  died(thread: Thread, error: { code: string; message: string }): void;
}

/** One worker thread of a pool. */
interface Thread {
  worker: Worker;
  alive: boolean;
  /** Episodes of the current run on this thread. */
  running: Set<string>;
}

/**
 * Worker threads started once and reused by run after run (one run at a time): see the module
 * comment. `close` ends them; a thread that dies is not replaced, and a run on a pool with no
 * thread left records its samples as `environment_error`.
 */
export class WorkerPool {
  /** Threads started. */
  readonly size: number;
  /** Settles when every thread has loaded its modules and opened the environment (or died). */
  readonly ready: Promise<void>;
  readonly #threads: Thread[];
  #handler: BatchHandler | null = null;
  #batch = 0;
  #closed = false;

  /**
   * Start `workers` threads on `environment` (opened there from its spec, isolation not probed
   * again). With `spawnerThreads`, each thread hands its children to a spawner thread of its own
   * as the main thread does; by default it spawns them itself (see `spawnOnThisThread`).
   */
  constructor(
    environment: Environment,
    workers: number,
    options: { spawnerThreads?: boolean } = {},
  ) {
    this.size = Math.max(1, workers);
    const init: PoolRequest = {
      kind: "init",
      // The threads share the environment's runs at once.
      environment: {
        ...environment.spec(),
        runSlots: Math.ceil(environment.sandbox.runSlots / this.size),
      },
      spawnerThread: options.spawnerThreads ?? false,
    };
    const readies: Promise<void>[] = [];
    this.#threads = Array.from({ length: this.size }, (_, i) => {
      const worker = new Worker(POOL_WORKER_MODULE, { type: "module", name: `patchgym-pool-${i}` });
      const thread: Thread = { worker, alive: true, running: new Set() };
      let readied!: () => void;
      readies.push(new Promise<void>((resolve) => (readied = resolve)));
      worker.onmessage = (event: MessageEvent<PoolReply>) => {
        const reply = event.data;
        if (reply.kind === "ready") readied();
        else if (reply.batch === this.#batch) this.#handler?.reply(thread, reply);
      };
      worker.onerror = (event: ErrorEvent) => {
        event.preventDefault();
        thread.alive = false;
        worker.terminate();
        readied();
        this.#handler?.died(thread, {
          code: "worker_failed",
          message: `A rollout worker thread failed: ${event.message}`,
        });
      };
      worker.postMessage(init);
      return thread;
    });
    this.ready = Promise.all(readies).then(() => {});
  }

  /** Threads still running. */
  get alive(): number {
    return this.#threads.filter((t) => t.alive).length;
  }

  /**
   * A runner for `runRollout` (its `remote`) that runs the samples on this pool's threads,
   * `options.concurrency` at once over all of them; see {@linkcode workerPoolRunner}.
   */
  runner(
    context: RemoteContext,
    options: { concurrency: number; keepWorkspaces?: boolean },
  ): RemoteRunner {
    return (jobs, deliver, signal) => this.#run(context, options, jobs, deliver, signal);
  }

  /** End every thread (samples still running on them are lost). */
  close(): void {
    this.#closed = true;
    for (const thread of this.#threads) {
      thread.alive = false;
      thread.worker.terminate();
    }
  }

  async #run(
    context: RemoteContext,
    options: { concurrency: number; keepWorkspaces?: boolean },
    jobs: SampleJob[],
    deliver: Parameters<RemoteRunner>[1],
    signal: AbortSignal,
  ): Promise<void> {
    if (jobs.length === 0) return;
    if (this.#handler) throw new Error("The worker pool is already running a rollout");
    if (this.#closed) throw new Error("The worker pool is closed");
    const batch = ++this.#batch;
    const live = this.#threads.filter((t) => t.alive);
    const pending = [...jobs];
    const byEpisode = new Map(jobs.map((j) => [j.episode_id, j]));
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
        await deliver(recordLine(record));
      });
    const skip = (job: SampleJob) => settle(job.episode_id, () => Promise.resolve());
    // Each thread's share of the samples at once; no more threads than samples at once.
    const used = live.slice(0, Math.max(1, Math.min(options.concurrency, jobs.length)));
    const shares = new Map(used.map((thread, i) => [
      thread,
      Math.floor(options.concurrency / used.length) +
      (i < options.concurrency % used.length ? 1 : 0),
    ]));
    const feed = (thread: Thread) => {
      const share = shares.get(thread) ?? 0;
      while (thread.alive && !signal.aborted && thread.running.size < share && pending.length > 0) {
        const job = pending.shift()!;
        thread.running.add(job.episode_id);
        thread.worker.postMessage({ kind: "job", batch, job } satisfies PoolRequest);
      }
    };
    const noThreadLeft = (error: { code: string; message: string }) => {
      // With no thread left, what is still waiting cannot run either.
      if (!used.some((t) => t.alive)) { for (const job of pending.splice(0)) failed(job, error); }
    };
    this.#handler = {
      reply: (thread, reply) => {
        const job = byEpisode.get(reply.episode_id);
        thread.running.delete(reply.episode_id);
        if (job) {
          if (reply.kind === "record") {
            settle(job.episode_id, () => deliver({ line: reply.line, digest: reply.digest }));
          } else if (reply.kind === "interrupted") {
            skip(job);
          } else {
            failed(job, reply.error);
          }
        }
        feed(thread);
      },
      died: (thread, error) => {
        for (const episode of thread.running) failed(byEpisode.get(episode)!, error);
        thread.running.clear();
        noThreadLeft(error);
      },
    };
    const onAbort = () => {
      for (const thread of used) {
        if (thread.alive) {
          thread.worker.postMessage({ kind: "abort", batch } satisfies PoolRequest);
        }
      }
      // Samples never handed out are not run.
      for (const job of pending.splice(0)) skip(job);
    };
    signal.addEventListener("abort", onAbort);
    try {
      const request: PoolRequest = {
        kind: "batch",
        batch,
        runId: context.config.run_id,
        run: runSpec(context.config) satisfies QueueRunSpec,
        keepWorkspaces: options.keepWorkspaces ?? false,
      };
      for (const thread of used) if (thread.alive) thread.worker.postMessage(request);
      if (signal.aborted) onAbort();
      noThreadLeft({ code: "worker_failed", message: "No rollout worker thread is running" });
      for (const thread of used) feed(thread);
      await allDone;
      await delivering;
      if (failure) throw failure;
    } finally {
      signal.removeEventListener("abort", onAbort);
      this.#handler = null;
      for (const thread of used) thread.running.clear();
    }
  }
}

/**
 * Run the samples on `options.workers` threads started for this run and ended after it;
 * `deliver` gets each record and its line in the order they finish. A thread that dies takes its
 * samples with it: they come back as `environment_error` records, and the remaining threads go
 * on. Aborting the signal stops handing out samples and ends the running ones as `interrupted`
 * (not delivered, as in a one-thread run).
 */
export function workerPoolRunner(context: RemoteContext, options: PoolOptions): RemoteRunner {
  return async (jobs, deliver, signal) => {
    if (jobs.length === 0) return;
    const threads = Math.max(1, Math.min(options.workers, options.concurrency, jobs.length));
    const pool = new WorkerPool(context.environment, threads);
    try {
      await pool.runner(context, options)(jobs, deliver, signal);
    } finally {
      pool.close();
    }
  };
}
