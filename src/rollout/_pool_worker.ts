/**
 * The worker thread of {@linkcode WorkerPool} (worker_pool.ts): it opens the run's environment
 * from the spec it is sent (isolation already probed, the same workspace root) and says so, then
 * runs the samples of each run it is given with `runSample`, exactly as the main thread would,
 * and posts each record back as its JSON line and its digest. It has the permissions of the process
 * (Deno workers inherit them). Private to `src/rollout/`.
 */
import { setPriority } from "node:os";
import { Environment } from "../agent/environment.ts";
import { describeError } from "../errors.ts";
import { parseScript } from "../policy/scripted.ts";
import { makePolicy } from "./policy.ts";
import { spawnOnThisThread } from "../sandbox/sandbox.ts";
import { runSample } from "./sample.ts";
import { recordLine } from "../trajectory/digest.ts";
import type { PoolReply, PoolRequest } from "./worker_pool.ts";

const scope = globalThis as unknown as {
  postMessage(message: PoolReply): void;
  onmessage: ((event: MessageEvent<PoolRequest>) => void) | null;
};

type Batch = Extract<PoolRequest, { kind: "batch" }>;

let environment: Promise<Environment> | null = null;
/** The run being worked on: its spec, its stop signal and its scripted policy, parsed once. */
let current: {
  request: Batch;
  stop: AbortController;
  scripts: Parameters<typeof makePolicy>[3];
} | null = null;

scope.onmessage = (event) => {
  const message = event.data;
  switch (message.kind) {
    case "init":
      if (!message.spawnerThread) spawnOnThisThread();
      environment = Environment.open(message.environment);
      // Ready either way: a failed set-up is each job's error.
      environment.then((env) => niceThisThread(env.sandbox.niceness), () => {})
        .then(() => scope.postMessage({ kind: "ready" }));
      break;
    case "batch":
      current?.stop.abort();
      current = {
        request: message,
        stop: new AbortController(),
        scripts: message.run.script_text
          ? { script: parseScript(message.run.script_text, "run script") }
          : {},
      };
      break;
    case "job": {
      const { batch, job } = message;
      runJob(job).catch((error) =>
        scope.postMessage({
          kind: "error",
          batch,
          episode_id: job.episode_id,
          error: describeError(error),
        })
      );
      break;
    }
    case "abort":
      if (current?.request.batch === message.batch) current.stop.abort();
      break;
  }
};

async function runJob(job: Extract<PoolRequest, { kind: "job" }>["job"]): Promise<void> {
  if (!environment || !current) throw new Error("The pool worker got a job before its set-up");
  const { request, stop, scripts } = current;
  const env = await environment;
  const { run, keepWorkspaces, batch } = request;
  const task = env.task(job.task_id);
  const record = await runSample(
    env,
    task,
    makePolicy(run.policy, task, job.sample, scripts),
    {
      run_id: request.runId,
      episode_id: job.episode_id,
      task_id: job.task_id,
      sample: job.sample,
      group_id: job.group_id,
    },
    {
      limits: run.limits,
      training: run.training,
      keepWorkspace: keepWorkspaces,
      signal: stop.signal,
      impossible: job.impossible,
    },
  );
  if (record.stop_reason === "interrupted") {
    scope.postMessage({ kind: "interrupted", batch, episode_id: job.episode_id });
    return;
  }
  scope.postMessage({ kind: "record", batch, episode_id: job.episode_id, ...recordLine(record) });
}

/**
 * This thread at its children's niceness (on Linux, where niceness is a thread's own). It runs
 * nothing but episodes, so it meets their tests as an equal, while the main thread, which writes
 * the records and answers trainers, stays above both. Above its children, it woke at each of their
 * writes and exits and preempted them, which cost more CPU on both sides than the same work done
 * in turns (docs/benchmarks.md, "Sixth round"). Without `--allow-sys=setPriority` it stays as it
 * is.
 */
function niceThisThread(niceness: number): void {
  if (Deno.build.os !== "linux" || niceness <= 0) return;
  try {
    setPriority(0, niceness);
  } catch {
    // Not permitted: the thread keeps the process's niceness.
  }
}
