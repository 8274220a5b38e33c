/**
 * `worker --queue URL`: take rollout jobs from a Redis queue (added by `rollout --queue URL`), run
 * each sample here in this machine's own jail with this worker's policy endpoint, and stream the
 * record back to the producer. SIGTERM or Ctrl-C drains: no new job is taken, running samples
 * finish and are delivered; a second signal exits at once (the jobs are retried elsewhere).
 */
import { describeError, UsageError } from "../errors.ts";
import { readLines } from "../lines.ts";
import {
  DEFAULT_LEASE_MS,
  DEFAULT_QUEUE_NAME,
  JOB_FORMAT,
  JobQueue,
  parseQueueUrl,
  type QueueJob,
  redactUrl,
  runWorker,
} from "../rollout/queue.ts";
import { runSample } from "../rollout/sample.ts";
import { QUEUE_KEY_ENV, readQueueKey } from "../rollout/signing.ts";
import { env, intFlag, numberFlag, parseFlags } from "./_args.ts";
import {
  ENVIRONMENT_FLAGS,
  openEnvironment,
  SANDBOX_FLAGS_HELP,
  WORK_DIR_DEFAULT,
} from "./_environment.ts";
import { makePolicy } from "./_policy.ts";
import { parseScript } from "../policy/scripted.ts";
import type { QueueRunSpec } from "../rollout/remote_run.ts";

/** Longest job line read on stdin. */
const MAX_JOB_LINE_BYTES = 64 * 1024 * 1024;

const HELP = `patchgym worker: run rollout jobs from a Redis queue, or from stdin

Usage: patchgym worker --queue redis://HOST:PORT [flags]
       patchgym worker --stdio [flags]

  --queue URL            the Redis holding the jobs (as given to "rollout --queue URL")
  --stdio                jobs as JSON lines on stdin, results as JSON lines on stdout (what the
                         replicas of "rollout --ray" run); ends when stdin closes and every
                         running sample is done
  --queue-name NAME      key prefix in Redis (default ${DEFAULT_QUEUE_NAME})
  --queue-key FILE       the key jobs and results are signed with, the driver's (or its text in
                         PATCHGYM_QUEUE_KEY); a job unsigned, signed with another key, altered
                         or replayed is dropped unrun
  --concurrency N        samples run at once (default 1)
  --lease S              a running job not renewed for S seconds is taken over by another worker;
                         every worker of a queue should use the same value (default ${
  DEFAULT_LEASE_MS / 1000
})
  --base-url URL         this worker's model endpoint, instead of the one the rollout names
                         (also PATCHGYM_BASE_URL; the API key comes from PATCHGYM_API_KEY or
                         OPENAI_API_KEY here, never from the queue)
  --model NAME           this worker's model name, instead of the rollout's
  --exit-when-idle       stop once no job is waiting or running (after a first job, or 30 s)
  --tasks-dir DIR        task folder (default ./tasks or PATCHGYM_TASKS)
  --work-dir DIR         workspace root (${WORK_DIR_DEFAULT})
  --isolation MODE       auto | bwrap | none (default auto)
${SANDBOX_FLAGS_HELP}

SIGTERM or Ctrl-C: take no new job, finish the running ones, exit 0. A second one exits at once.
`;

/** Run the `worker` command until it is told to stop. */
export async function workerCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("worker", args, {
    queue: { type: "string" },
    stdio: { type: "boolean" },
    "queue-name": { type: "string" },
    "queue-key": { type: "string" },
    concurrency: { type: "string" },
    lease: { type: "string" },
    "base-url": { type: "string" },
    model: { type: "string" },
    "exit-when-idle": { type: "boolean" },
    ...ENVIRONMENT_FLAGS,
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!values.queue === !values.stdio) {
    throw new UsageError(
      'worker: give one of --queue URL or --stdio, e.g. "patchgym worker --queue redis://127.0.0.1:6379"',
    );
  }
  if (values.queue) parseQueueUrl(values.queue);
  const queueKey = values.queue ? readQueueKey(values["queue-key"], env(QUEUE_KEY_ENV)) : undefined;
  const concurrency = intFlag("concurrency", values.concurrency, 1, 1, 1024);
  const leaseSeconds = numberFlag("lease", values.lease) ?? DEFAULT_LEASE_MS / 1000;
  if (!(leaseSeconds >= 0.3)) {
    throw new UsageError(`--lease: expected seconds >= 0.3, got "${values.lease}"`);
  }
  const baseUrl = values["base-url"] ?? env("PATCHGYM_BASE_URL");

  const stop = new AbortController();
  let signals = 0;
  const onSignal = () => {
    signals++;
    if (signals > 1) Deno.exit(143);
    console.error("Draining: finishing the running samples, taking no new job (again to quit now)");
    stop.abort();
  };
  Deno.addSignalListener("SIGTERM", onSignal);
  Deno.addSignalListener("SIGINT", onSignal);
  try {
    const environment = await openEnvironment(values, undefined, { drainOnSigterm: true });
    const runJob = (job: QueueJob): Promise<Record<string, unknown>> => {
      if (job.format !== JOB_FORMAT) {
        throw new Error(`Unknown job format "${job.format}"; expected "${JOB_FORMAT}"`);
      }
      // A job names a task of this worker's own task store, never a path.
      if (
        typeof job.task_id !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(job.task_id) ||
        !environment.taskIds().includes(job.task_id)
      ) {
        throw new Error(
          `Job names task "${job.task_id}", which is not in this worker's task folder`,
        );
      }
      const run = job.run as unknown as QueueRunSpec;
      if (run.policy.kind === "scripted" && !run.script_text) {
        // Never a file named by the job: a script comes in the (signed) job or not at all.
        throw new Error("Job has a scripted policy without its script; the driver must send it");
      }
      const policy = run.policy.kind === "openai"
        ? {
          ...run.policy,
          base_url: baseUrl ?? run.policy.base_url,
          model: values.model ?? run.policy.model,
        }
        : run.policy;
      const task = environment.task(job.task_id);
      // A scripted policy's steps come in the job (parsed once per job: they are small).
      const cache = run.script_text ? { script: parseScript(run.script_text, "job script") } : {};
      return runSample(environment, task, makePolicy(policy, task, job.sample, cache), {
        run_id: job.run_id,
        episode_id: job.episode_id,
        task_id: job.task_id,
        sample: job.sample,
        group_id: job.group_id,
      }, { limits: run.limits, training: run.training }) as unknown as Promise<
        Record<string, unknown>
      >;
    };
    if (values.stdio) {
      await serveJobsOnStdio(runJob, concurrency);
      return 0;
    }
    const queue = await JobQueue.connect(
      values.queue!,
      values["queue-name"] ?? DEFAULT_QUEUE_NAME,
      queueKey,
    );
    console.error(
      `Worker ${Deno.pid}: queue ${redactUrl(values.queue!)}, key ${
        queueKey!.id
      }, ${concurrency} at once, isolation ${environment.isolation.level}`,
    );
    try {
      const { done } = await runWorker(queue, ({ job }) => runJob(job), {
        concurrency,
        leaseMs: leaseSeconds * 1000,
        signal: stop.signal,
        exitWhenIdle: values["exit-when-idle"],
        onRefused: (refused) =>
          console.error(`Refused job ${refused.id} unrun (${refused.reason}): ${refused.message}`),
        onRetry: (job, attempt, error) =>
          console.error(
            `${job.episode_id}: attempt ${attempt} of ${job.max_attempts} failed here: ${
              (error as Error).message
            }`,
          ),
        onDone: (job, result) =>
          console.error(
            `${job.episode_id}: ${
              result.kind === "record" ? String(result.record.stop_reason) : "failed"
            }`,
          ),
      });
      console.error(`Worker ${Deno.pid}: ${done} sample(s) done; stopped`);
    } finally {
      await queue.close();
    }
  } finally {
    Deno.removeSignalListener("SIGTERM", onSignal);
    Deno.removeSignalListener("SIGINT", onSignal);
  }
  return 0;
}

/**
 * Jobs from stdin, one JSON line each; for each a result line on stdout: `{"kind":"record",
 * "episode_id","record"}`, or `{"kind":"error","episode_id","error"}` when it could not be run
 * here. Up to `concurrency` at once; returns when stdin has closed and all are answered.
 */
async function serveJobsOnStdio(
  runJob: (job: QueueJob) => Promise<Record<string, unknown>>,
  concurrency: number,
): Promise<void> {
  const encoder = new TextEncoder();
  let output = Promise.resolve();
  const answer = (value: unknown) => {
    const bytes = encoder.encode(`${JSON.stringify(value)}\n`);
    output = output.then(async () => {
      let written = 0;
      while (written < bytes.length) written += await Deno.stdout.write(bytes.subarray(written));
    });
    return output;
  };
  const running = new Set<Promise<void>>();
  for await (const event of readLines(Deno.stdin.readable, MAX_JOB_LINE_BYTES)) {
    if (event.kind !== "line" || event.text.trim() === "") continue;
    while (running.size >= concurrency) await Promise.race(running);
    let job: QueueJob;
    try {
      job = JSON.parse(event.text);
    } catch (error) {
      await answer({ kind: "error", episode_id: null, error: describeError(error) });
      continue;
    }
    const one = (async () => {
      try {
        await answer({ kind: "record", episode_id: job.episode_id, record: await runJob(job) });
      } catch (error) {
        await answer({ kind: "error", episode_id: job.episode_id, error: describeError(error) });
      }
    })();
    running.add(one);
    one.finally(() => running.delete(one));
  }
  await Promise.all(running);
  await output;
}
