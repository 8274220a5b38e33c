/**
 * A job queue over Redis streams for batch rollouts without Ray: a producer (`rollout --queue`)
 * adds one job per task x sample, any number of workers (`patchgym worker --queue`) on any machines
 * take them, and each finished record is streamed back to the producer's run.
 *
 * Guarantees, all from Redis itself (a consumer group on one stream, no home-made scheduler):
 * - At-least-once: a job stays in the group's pending list until the worker that ran it has
 *   published the result and acknowledged it (XACK). A worker renews its lease on running jobs
 *   (XCLAIM to itself); a job whose lease lapsed, because its worker was killed or lost, is taken
 *   over by another worker (XAUTOCLAIM). The producer keeps one record per episode id, so a job run
 *   twice still gives one record.
 * - Bounded retries: Redis counts deliveries per job; a job delivered more than `max_attempts`
 *   times (it kept killing or failing its workers) is not run again but published as `failed`,
 *   and the producer records it as `environment_error`.
 * - Drain: a stopping worker takes no new job and finishes, publishes and acknowledges its
 *   running ones.
 *
 * - Signed: every job and result is signed with the queue's key (see signing.ts). A worker drops
 *   a job that is unsigned, forged or a replay without running it; the producer refuses such
 *   results and counts them.
 *
 * Keys, under a queue name (default `patchgym`): `NAME:jobs` (the stream, consumer group
 * `workers`), `NAME:results:RUN` (the results stream of one run), `NAME:queued:RUN` (episode ids
 * already added, so a resumed producer does not add them twice), `NAME:nonce:NONCE` (the stream
 * entry a job's nonce was first seen in, to tell a replay from a redelivery).
 *
 * Redis itself: `redis://USER:PASSWORD@HOST:PORT` for AUTH/ACL, `rediss://` for TLS.
 */
import { createClient } from "redis";
import { PatchgymError } from "../errors.ts";
import { MAX_AGE_MS, type QueueKey, type Refusal, sign, verify } from "./signing.ts";

/** Format name and version of a job. */
export const JOB_FORMAT = "patchgym.job.v1";

/** Default queue name: the prefix of every key. */
export const DEFAULT_QUEUE_NAME = "patchgym";

/** Default lease: a running job not renewed for this long is taken over by another worker. */
export const DEFAULT_LEASE_MS = 30_000;

/** Default number of deliveries of one job before it is recorded as failed. */
export const DEFAULT_MAX_ATTEMPTS = 3;

const GROUP = "workers";

/** One task x sample: what a worker needs to run it and where to send the record. */
export interface QueueJob {
  format: typeof JOB_FORMAT;
  run_id: string;
  episode_id: string;
  task_id: string;
  sample: number;
  group_id: string;
  /** Deliveries allowed before the job is given up as failed. */
  max_attempts: number;
  /** How to run it (policy, limits, training options): opaque to the queue. */
  run: Record<string, unknown>;
}

/** What a worker publishes for a job. */
export type QueueResult =
  | { kind: "record"; episode_id: string; record: Record<string, unknown> }
  | {
    kind: "failed";
    episode_id: string;
    task_id: string;
    sample: number;
    attempts: number;
    error: { code: string; message: string };
  };

/** A job handed to a worker's handler. */
export interface Delivery {
  job: QueueJob;
  /** How many times the job has been delivered, this time included. */
  attempt: number;
}

/** A message refused: which stream entry, and why. */
export interface Refused {
  id: string;
  reason: Refusal;
  message: string;
}

type Redis = ReturnType<typeof createClient>;
type StreamEntry = [id: string, fields: string[]];

/** Check a queue URL (`redis://HOST:PORT[/DB]`, or `rediss://` for TLS); returns it normalized. */
export function parseQueueUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new QueueError(`Invalid queue URL "${url}": expected redis://HOST:PORT`);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new QueueError(
      `Invalid queue URL "${url}": expected a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379`,
    );
  }
  return parsed;
}

/** The queue (or the Ray driver) could not be reached or answered something unexpected. */
export class QueueError extends PatchgymError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("queue_failed", message, options);
  }
}

/** `url` without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString().replace(/\/$/, "");
  } catch {
    return url;
  }
}

/** A connection to the queue. Each blocking reader gets its own (see {@linkcode duplicate}). */
export class JobQueue {
  readonly url: string;
  readonly name: string;
  readonly #redis: Redis;
  readonly #key: QueueKey | undefined;
  /** Nonces of results already read by this connection (a second one is a replay). */
  readonly #seen = new Set<string>();

  private constructor(url: string, name: string, redis: Redis, key: QueueKey | undefined) {
    this.url = url;
    this.name = name;
    this.#redis = redis;
    this.#key = key;
  }

  /**
   * Connect to the Redis at `url`; throws {@linkcode QueueError} when it cannot be reached. Jobs
   * and results need `key` (only `doctor`'s ping goes without).
   */
  static async connect(
    url: string,
    name = DEFAULT_QUEUE_NAME,
    key?: QueueKey,
  ): Promise<JobQueue> {
    parseQueueUrl(url);
    // No reconnect strategy: a lost connection fails the command, and the caller decides.
    const redis = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 5000 } });
    redis.on("error", () => {}); // Reported through the failing command instead.
    try {
      await redis.connect();
    } catch (error) {
      throw new QueueError(
        `Cannot connect to the queue at "${redactUrl(url)}": ${
          (error as Error).message
        }; start redis-server or fix --queue (user and password as redis://USER:PASSWORD@HOST:PORT)`,
        { cause: error },
      );
    }
    return new JobQueue(url, name, redis, key);
  }

  /** Another connection to the same queue. */
  duplicate(): Promise<JobQueue> {
    return JobQueue.connect(this.url, this.name, this.#key);
  }

  get #signingKey(): QueueKey {
    if (!this.#key) throw new QueueError("The queue has no signing key (--queue-key)");
    return this.#key;
  }

  /** Redis's version and round trip, for `doctor`. */
  async ping(): Promise<{ version: string; ms: number }> {
    const started = performance.now();
    await this.#command(["PING"]);
    const ms = performance.now() - started;
    const info = String(await this.#command(["INFO", "server"]));
    return { version: /redis_version:(\S+)/.exec(info)?.[1] ?? "unknown", ms };
  }

  get #jobs(): string {
    return `${this.name}:jobs`;
  }

  /** The results stream of run `runId`. */
  resultsKey(runId: string): string {
    return `${this.name}:results:${runId}`;
  }

  /** Add the jobs not added before (by episode id); returns how many were added. */
  async enqueue(jobs: QueueJob[]): Promise<number> {
    await this.#ensureGroup();
    let added = 0;
    for (const job of jobs) {
      const fresh = await this.#command([
        "SADD",
        `${this.name}:queued:${job.run_id}`,
        job.episode_id,
      ]);
      if (Number(fresh) === 0) continue;
      await this.#command([
        "XADD",
        this.#jobs,
        "*",
        "job",
        sign(this.#signingKey, "job", this.#jobs, job),
      ]);
      added++;
    }
    return added;
  }

  /**
   * Results of run `runId` after stream id `after` ("0" for all), waiting up to `blockMs` for the
   * first; returns them with the id to continue from.
   */
  async results(
    runId: string,
    after: string,
    blockMs: number,
  ): Promise<{ results: QueueResult[]; next: string; refused: Refused[] }> {
    const answer = await this.#command([
      "XREAD",
      "COUNT",
      "64",
      "BLOCK",
      String(blockMs),
      "STREAMS",
      this.resultsKey(runId),
      after,
    ]) as [string, StreamEntry[]][] | null;
    const entries = answer?.[0]?.[1] ?? [];
    const results: QueueResult[] = [];
    const refused: Refused[] = [];
    for (const [id, fields] of entries) {
      const checked = verify(
        this.#signingKey,
        "result",
        this.resultsKey(runId),
        optionalField(fields, "result") ?? "",
      );
      if (!checked.ok) {
        refused.push({ id, reason: checked.reason, message: checked.message });
      } else if (this.#seen.has(checked.nonce)) {
        refused.push({ id, reason: "replayed", message: "a copy of a result already read" });
      } else {
        this.#seen.add(checked.nonce);
        results.push(checked.value as QueueResult);
      }
    }
    return {
      results,
      next: entries.length > 0 ? entries[entries.length - 1][0] : after,
      refused,
    };
  }

  /** Remove a finished run's results stream and its record of added jobs. */
  async forgetRun(runId: string): Promise<void> {
    await this.#command(["DEL", this.resultsKey(runId), `${this.name}:queued:${runId}`]);
  }

  /** Jobs in the stream not yet taken, and jobs taken but not acknowledged. */
  async counts(): Promise<{ waiting: number; running: number }> {
    if (!await this.#hasJobs()) return { waiting: 0, running: 0 };
    const groups = await this.#command(["XINFO", "GROUPS", this.#jobs]) as unknown[][];
    const group = groups.map(pairs).find((g) => g.name === GROUP);
    return { waiting: Number(group?.lag ?? 0), running: Number(group?.pending ?? 0) };
  }

  /** Workers known to the group, with the jobs each holds now. */
  async consumers(): Promise<{ name: string; running: number }[]> {
    if (!await this.#hasJobs()) return [];
    const list = await this.#command(["XINFO", "CONSUMERS", this.#jobs, GROUP]) as unknown[][];
    return list.map(pairs).map((c) => ({ name: String(c.name), running: Number(c.pending) }));
  }

  /**
   * Take one job for `consumer`: first one whose lease of `leaseMs` lapsed (its worker died or
   * failed it), else a new one, waiting up to `blockMs`. Null when there is none. A job that is
   * unsigned, forged or a replay is removed from the queue unrun and told to `onRefused`.
   */
  async take(
    consumer: string,
    leaseMs: number,
    blockMs: number,
    onRefused: (refused: Refused) => void = () => {},
  ): Promise<Delivery & { id: string } | null> {
    for (;;) {
      const taken = await this.#take(consumer, leaseMs, blockMs);
      if (taken === null) return null;
      if (!("refused" in taken)) return taken;
      await this.#command(["XACK", this.#jobs, GROUP, taken.refused.id]);
      await this.#command(["XDEL", this.#jobs, taken.refused.id]);
      onRefused(taken.refused);
    }
  }

  async #take(
    consumer: string,
    leaseMs: number,
    blockMs: number,
  ): Promise<Delivery & { id: string } | { refused: Refused } | null> {
    await this.#ensureGroup();
    const claimed = await this.#command([
      "XAUTOCLAIM",
      this.#jobs,
      GROUP,
      consumer,
      String(leaseMs),
      "0-0",
      "COUNT",
      "1",
    ]) as [string, (StreamEntry | null)[], string[]?];
    const stale = claimed[1].find((e): e is StreamEntry => e !== null);
    if (stale) return await this.#delivery(stale);
    const answer = await this.#command([
      "XREADGROUP",
      "GROUP",
      GROUP,
      consumer,
      "COUNT",
      "1",
      "BLOCK",
      String(blockMs),
      "STREAMS",
      this.#jobs,
      ">",
    ]) as [string, StreamEntry[]][] | null;
    const entry = answer?.[0]?.[1]?.[0];
    return entry ? await this.#delivery(entry) : null;
  }

  /** Renew `consumer`'s lease on job `id`; false when another worker has taken it over. */
  async renew(consumer: string, id: string): Promise<boolean> {
    const owner = await this.#owner(id);
    if (owner !== consumer) return false;
    // JUSTID: resets the idle time without counting a delivery.
    await this.#command(["XCLAIM", this.#jobs, GROUP, consumer, "0", id, "JUSTID"]);
    return true;
  }

  /** Publish `result` to its run, then acknowledge and delete job `id`: the job is done. */
  async complete(id: string, runId: string, result: QueueResult): Promise<void> {
    await this.#command([
      "XADD",
      this.resultsKey(runId),
      "*",
      "result",
      sign(this.#signingKey, "result", this.resultsKey(runId), result),
    ]);
    await this.#command(["XACK", this.#jobs, GROUP, id]);
    await this.#command(["XDEL", this.#jobs, id]);
  }

  /** Hand job `id` back at once (it failed here), so any worker can take it again. */
  async release(consumer: string, id: string, leaseMs: number): Promise<void> {
    await this.#command([
      "XCLAIM",
      this.#jobs,
      GROUP,
      consumer,
      "0",
      id,
      "IDLE",
      String(leaseMs),
      "JUSTID",
    ]);
  }

  /** Forget `consumer` in the group if it holds no job (deleting it would orphan its jobs). */
  async leave(consumer: string): Promise<void> {
    const held = await this.#command(["XPENDING", this.#jobs, GROUP, "-", "+", "1", consumer])
      .catch(() => [1]) as unknown[];
    if (held.length > 0) return;
    await this.#command(["XGROUP", "DELCONSUMER", this.#jobs, GROUP, consumer]).catch(() => {});
  }

  /** Close the connection. */
  async close(): Promise<void> {
    try {
      await this.#redis.quit();
    } catch {
      this.#redis.destroy();
    }
  }

  /** The job of a stream entry once its signature and nonce check out, else why not. */
  async #delivery(entry: StreamEntry): Promise<Delivery & { id: string } | { refused: Refused }> {
    const [id, fields] = entry;
    const checked = verify(this.#signingKey, "job", this.#jobs, optionalField(fields, "job") ?? "");
    if (!checked.ok) return { refused: { id, reason: checked.reason, message: checked.message } };
    // The first entry a nonce is seen in owns it: a redelivery of that entry is fine, the same
    // signed job added again (a replay) is not.
    const nonceKey = `${this.name}:nonce:${checked.nonce}`;
    const fresh = await this.#command(["SET", nonceKey, id, "NX", "PX", String(MAX_AGE_MS)]);
    const owner = fresh === null ? await this.#command(["GET", nonceKey]) : null;
    if (owner !== null && owner !== id) {
      return {
        refused: { id, reason: "replayed", message: `a copy of the job first added as ${owner}` },
      };
    }
    const job = checked.value as QueueJob;
    if (typeof job !== "object" || job === null || job.format !== JOB_FORMAT) {
      return { refused: { id, reason: "invalid", message: "not a job" } };
    }
    const pending = await this.#command([
      "XPENDING",
      this.#jobs,
      GROUP,
      entry[0],
      entry[0],
      "1",
    ]) as [
      string,
      string,
      number,
      number,
    ][];
    return { id, job, attempt: Number(pending[0]?.[3] ?? 1) };
  }

  async #owner(id: string): Promise<string | null> {
    const pending = await this.#command(["XPENDING", this.#jobs, GROUP, id, id, "1"]) as [
      string,
      string,
    ][];
    return pending[0]?.[1] ?? null;
  }

  async #hasJobs(): Promise<boolean> {
    return this.#groupReady || Number(await this.#command(["EXISTS", this.#jobs])) > 0;
  }

  #groupReady = false;

  async #ensureGroup(): Promise<void> {
    if (this.#groupReady) return;
    try {
      await this.#command(["XGROUP", "CREATE", this.#jobs, GROUP, "0", "MKSTREAM"]);
    } catch (error) {
      if (!/BUSYGROUP/.test((error as Error).message)) throw error;
    }
    this.#groupReady = true;
  }

  async #command(args: string[]): Promise<unknown> {
    try {
      return await this.#redis.sendCommand(args);
    } catch (error) {
      if (error instanceof QueueError) throw error;
      throw new QueueError(
        `Queue command ${args[0]} failed at "${this.url}": ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
}

/** Options of {@linkcode runWorker}. */
export interface WorkerOptions {
  /** Jobs run at once (default 1). */
  concurrency?: number;
  /** See {@linkcode DEFAULT_LEASE_MS}. */
  leaseMs?: number;
  /** Aborting it drains: no new job is taken, running ones finish. */
  signal?: AbortSignal;
  /**
   * Stop once no job is waiting or running anywhere (for one-off batch workers), after a first job
   * or, without one, after 30 s.
   */
  exitWhenIdle?: boolean;
  /** Told about each job as it ends. */
  onDone?: (job: QueueJob, result: QueueResult) => void;
  /** Told when the handler threw and the job was handed back for another try. */
  onRetry?: (job: QueueJob, attempt: number, error: unknown) => void;
  /** Told about each job refused unrun (unsigned, forged, replayed). */
  onRefused?: (refused: Refused) => void;
}

/**
 * Take jobs from `queue` and run each with `handler` until `signal` aborts (then drain). The
 * handler returns the record; a handler that throws hands the job back for another try. A job
 * delivered more than its `max_attempts` is published as `failed` without running it.
 */
export async function runWorker(
  queue: JobQueue,
  handler: (delivery: Delivery) => Promise<Record<string, unknown>>,
  options: WorkerOptions = {},
): Promise<{ done: number }> {
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const concurrency = options.concurrency ?? 1;
  const base = `worker-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  let done = 0;
  // A worker may start before its producer has added the jobs: idle counts only once a job was
  // seen, or after a grace period without any.
  let seenJob = false;
  const started = performance.now();
  const slot = async (index: number) => {
    const consumer = `${base}-${index}`;
    const reader = await queue.duplicate();
    try {
      while (!options.signal?.aborted) {
        const taken = await reader.take(
          consumer,
          leaseMs,
          Math.min(1000, leaseMs),
          options.onRefused,
        );
        if (!taken) {
          if (options.exitWhenIdle && (seenJob || performance.now() - started > IDLE_GRACE_MS)) {
            const { waiting, running } = await reader.counts();
            if (waiting === 0 && running === 0) break;
          }
          continue;
        }
        seenJob = true;
        const { id, job, attempt } = taken;
        if (attempt > job.max_attempts) {
          const result: QueueResult = {
            kind: "failed",
            episode_id: job.episode_id,
            task_id: job.task_id,
            sample: job.sample,
            attempts: attempt - 1,
            error: {
              code: "job_failed",
              message: `Job "${job.episode_id}" failed on ${
                attempt - 1
              } attempt(s) (its worker died or could not run it); giving up`,
            },
          };
          await reader.complete(id, job.run_id, result);
          options.onDone?.(job, result);
          continue;
        }
        const heartbeat = setInterval(() => {
          reader.renew(consumer, id).catch(() => {});
        }, Math.max(100, Math.floor(leaseMs / 3)));
        let record: Record<string, unknown>;
        try {
          record = await handler({ job, attempt });
        } catch (error) {
          clearInterval(heartbeat);
          options.onRetry?.(job, attempt, error);
          await reader.release(consumer, id, leaseMs);
          continue;
        }
        clearInterval(heartbeat);
        const result: QueueResult = { kind: "record", episode_id: job.episode_id, record };
        await reader.complete(id, job.run_id, result);
        done++;
        options.onDone?.(job, result);
      }
    } finally {
      await reader.leave(consumer);
      await reader.close();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, i) => slot(i)));
  return { done };
}

function optionalField(fields: string[], name: string): string | undefined {
  for (let i = 0; i + 1 < fields.length; i += 2) if (fields[i] === name) return fields[i + 1];
  return undefined;
}

function pairs(list: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i + 1 < list.length; i += 2) out[String(list[i])] = list[i + 1];
  return out;
}

/** How long a worker with `exitWhenIdle` waits for a first job before an empty queue ends it. */
const IDLE_GRACE_MS = 30_000;
