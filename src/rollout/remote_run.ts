/**
 * Running a rollout's samples elsewhere: on `worker --queue` processes through a Redis queue, or
 * on `worker --stdio` replicas on a Ray cluster through the driver `python -m patchgym.ray`. Each
 * returns a {@linkcode RemoteRunner} for `runRollout`, which keeps the run folder, resume and
 * summary the same as a local run. A record that comes back is checked against the record schema
 * and its identity; a sample the workers gave up on becomes an `environment_error` record here.
 */
import { patchgymCommand } from "../hint.ts";
import { readFileSync } from "node:fs";
import { type RecordLine, recordLine } from "../trajectory/digest.ts";
import { parseRecord, type TrajectoryRecord } from "../trajectory/record.ts";
import type { Policy } from "../policy/types.ts";
import type { Task } from "../task/spec.ts";
import { UsageError } from "../errors.ts";
import type { Environment } from "../agent/environment.ts";
import { readLines } from "../lines.ts";
import {
  JOB_FORMAT,
  JobQueue,
  QueueError,
  type QueueJob,
  type QueueResult,
  redactUrl,
} from "./queue.ts";
import type { QueueKey } from "./signing.ts";
import type { RunConfig } from "./run_config.ts";
import { failedSample } from "./sample.ts";

/** One sample to run: its identity in the run. */
export interface SampleJob {
  task_id: string;
  sample: number;
  episode_id: string;
  group_id: string;
  /**
   * Graded as an impossible sample (`--impossible-rate`); runners that honour it: the worker
   * threads. Queue and Ray workers grade every sample as an ordinary one.
   */
  impossible?: boolean;
}

/**
 * Runs `jobs` somewhere else and hands each finished record to `deliver` (which keeps one per
 * episode id), until all are delivered or `signal` aborts.
 */
export type RemoteRunner = (
  jobs: SampleJob[],
  /** A finished record: its JSON line (written as it is) and its digest. */
  deliver: (record: RecordLine) => Promise<void>,
  signal: AbortSignal,
) => Promise<RemoteOutcome | void>;

/** What a remote runner tells the run's summary. */
export interface RemoteOutcome {
  /** Results refused (unsigned, forged, replayed, ...), by reason. */
  refused: Record<string, number>;
}

/** What a job carries in its `run` field: how a worker runs the sample. */
export interface QueueRunSpec {
  policy: RunConfig["policy"];
  limits: RunConfig["limits"];
  training: RunConfig["training"];
  /** A scripted policy's script, carried in the job: the worker's machine need not have the file. */
  script_text?: string;
}

/** What every remote runner needs of the run. */
export interface RemoteContext {
  config: RunConfig;
  environment: Environment;
  /** The policy of one sample (its name and sampling go into an `environment_error` record). */
  policyFor: (task: Task, sample: number) => Policy;
  /** Deliveries of one job before it is recorded as `environment_error`. */
  maxAttempts: number;
}

/** How a worker runs the samples of `config` (a scripted policy's script read here, once). */
export function runSpec(config: RunConfig): QueueRunSpec {
  return {
    policy: config.policy,
    limits: config.limits,
    training: config.training,
    ...(config.policy.script ? { script_text: readFileSync(config.policy.script, "utf8") } : {}),
  };
}

/** The jobs of `samples` for the queue or the Ray driver. */
export function queueJobs(context: RemoteContext, samples: SampleJob[]): QueueJob[] {
  const { config } = context;
  const run = runSpec(config);
  return samples.map((s) => ({
    format: JOB_FORMAT,
    run_id: config.run_id,
    ...s,
    max_attempts: context.maxAttempts,
    run: run as unknown as Record<string, unknown>,
  }));
}

/**
 * Samples through the Redis queue at `url`: add the jobs (those added before, by episode id, are
 * not added again), then collect results until every job has one or the signal aborts. Jobs stay
 * queued after an interruption; a resume collects what finished meanwhile.
 */
export function queueRunner(
  url: string,
  name: string,
  context: RemoteContext,
  key: QueueKey,
): RemoteRunner {
  return async (samples, deliver, signal) => {
    const queue = await JobQueue.connect(url, name, key);
    const refused: Record<string, number> = {};
    try {
      const jobs = queueJobs(context, samples);
      const added = await queue.enqueue(jobs);
      console.error(
        `Queue ${redactUrl(url)}: added ${added} job(s) signed with key ${key.id}${
          added < jobs.length ? ` (${jobs.length - added} were added before)` : ""
        }; waiting for workers ("${
          patchgymCommand(`worker --queue ${redactUrl(url)} --queue-key FILE`)
        }")`,
      );
      const remaining = new Map(jobs.map((j) => [j.episode_id, j]));
      let after = "0";
      while (remaining.size > 0 && !signal.aborted) {
        const batch = await queue.results(context.config.run_id, after, 1000);
        after = batch.next;
        for (const r of batch.refused) {
          refused[r.reason] = (refused[r.reason] ?? 0) + 1;
          console.error(`Queue: refused result ${r.id} (${r.reason}): ${r.message}`);
        }
        for (const result of batch.results) {
          const job = remaining.get(result.episode_id);
          if (!job) continue; // A duplicate (a job run twice) or a sample done before a resume.
          remaining.delete(result.episode_id);
          await deliver(recordLine(await recordOf(result, job, context)));
        }
      }
      if (remaining.size === 0) await queue.forgetRun(context.config.run_id);
    } finally {
      await queue.close();
    }
    return { refused };
  };
}

/** Options of {@linkcode rayRunner}. */
export interface RayOptions {
  /** The Python with Ray and the patchgym package. */
  python: string;
  replicas: number;
  /** CPUs reserved per replica. */
  cpus: number;
  /** Samples at once per replica. */
  concurrency: number;
  /** The replicas' command; default `patchgym worker --stdio` (see `patchgym.ray`). */
  command?: string[];
}

/**
 * Samples on the Ray cluster at `address` through the driver `python -m patchgym.ray rollout`:
 * jobs on its stdin, results on its stdout. Aborting stops the driver.
 */
export function rayRunner(
  address: string,
  options: RayOptions,
  context: RemoteContext,
): RemoteRunner {
  return async (samples, deliver, signal) => {
    const jobs = queueJobs(context, samples);
    const args = [
      ...["-m", "patchgym.ray", "rollout", "--address", address],
      ...["--replicas", String(options.replicas), "--num-cpus", String(options.cpus)],
      ...["--concurrency", String(options.concurrency), "--cwd", Deno.cwd()],
      ...(options.command?.length ? ["--", ...options.command] : []),
    ];
    let driver: Deno.ChildProcess;
    try {
      driver = new Deno.Command(options.python, {
        args,
        stdin: "piped",
        stdout: "piped",
        stderr: "inherit",
      }).spawn();
    } catch (error) {
      throw new UsageError(
        `--ray: cannot start the driver "${options.python} -m patchgym.ray": ${
          (error as Error).message
        }; install Ray and clients/python for that Python, or pass --ray-python`,
      );
    }
    console.error(
      `Ray ${address}: ${jobs.length} job(s) on ${options.replicas} replica(s) through ${options.python} -m patchgym.ray`,
    );
    const stopDriver = () => {
      try {
        driver.kill("SIGTERM");
      } catch {
        // Already exited.
      }
    };
    signal.addEventListener("abort", stopDriver);
    try {
      const writer = driver.stdin.getWriter();
      await writer.write(
        new TextEncoder().encode(jobs.map((j) => `${JSON.stringify(j)}\n`).join("")),
      );
      await writer.close();
      const remaining = new Map(jobs.map((j) => [j.episode_id, j]));
      for await (const event of readLines(driver.stdout, 1024 ** 3)) {
        if (event.kind !== "line" || event.text.trim() === "") continue;
        let result: QueueResult;
        try {
          result = JSON.parse(event.text);
        } catch {
          console.error(event.text); // Something else the driver printed.
          continue;
        }
        const job = remaining.get(result.episode_id);
        if (!job) continue;
        remaining.delete(result.episode_id);
        await deliver(recordLine(await recordOf(result, job, context)));
      }
      const { code } = await driver.status;
      if (remaining.size > 0 && !signal.aborted) {
        throw new QueueError(
          `The Ray driver exited (code ${code}) with ${remaining.size} sample(s) not done; see its messages above, fix it and continue with --resume`,
        );
      }
    } finally {
      signal.removeEventListener("abort", stopDriver);
      stopDriver();
      await driver.status;
    }
  };
}

/** The record a result stands for: the worker's own if it is valid and is this job's, else an `environment_error` record. */
function recordOf(
  result: QueueResult,
  job: QueueJob,
  context: RemoteContext,
): Promise<TrajectoryRecord> {
  let error: { code: string; message: string };
  if (result.kind === "record") {
    const parsed = parseRecord(result.record);
    if (parsed.ok) {
      const r = parsed.record;
      if (
        r.episode_id === job.episode_id && r.task_id === job.task_id && r.sample === job.sample &&
        r.run_id === job.run_id
      ) {
        return Promise.resolve(r);
      }
      error = {
        code: "job_failed",
        message: `The worker's record for "${job.episode_id}" names another sample; not kept`,
      };
    } else {
      error = {
        code: "job_failed",
        message: `The worker's record for "${job.episode_id}" is not a valid record: ${
          parsed.problems[0]
        }`,
      };
    }
  } else {
    error = result.error;
  }
  const task = context.environment.task(job.task_id);
  return failedSample(
    context.environment,
    task,
    context.policyFor(task, job.sample),
    {
      run_id: job.run_id,
      episode_id: job.episode_id,
      task_id: job.task_id,
      sample: job.sample,
      group_id: job.group_id,
    },
    error,
    { limits: context.config.limits, training: context.config.training },
  );
}
