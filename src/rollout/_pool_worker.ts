/**
 * The worker thread of {@linkcode workerPoolRunner} (worker_pool.ts): it opens the run's
 * environment from the spec it is sent (isolation already probed, the same workspace root), runs
 * the samples it is given with `runSample`, exactly as the main thread would, and posts each record
 * back as its JSON line. It has the permissions of the process (Deno workers inherit them).
 * Private to `src/rollout/`.
 */
import { Environment } from "../agent/environment.ts";
import { describeError } from "../errors.ts";
import { parseScript } from "../policy/scripted.ts";
import { makePolicy } from "./policy.ts";
import { runSample } from "./sample.ts";
import type { PoolReply, PoolRequest } from "./worker_pool.ts";

const scope = globalThis as unknown as {
  postMessage(message: PoolReply): void;
  onmessage: ((event: MessageEvent<PoolRequest>) => void) | null;
};

let environment: Promise<Environment> | null = null;
let request: Extract<PoolRequest, { kind: "init" }> | null = null;
const stop = new AbortController();
const scriptCache: Parameters<typeof makePolicy>[3] = {};

scope.onmessage = (event) => {
  const message = event.data;
  switch (message.kind) {
    case "init":
      request = message;
      if (message.run.script_text) {
        scriptCache.script = parseScript(message.run.script_text, "run script");
      }
      environment = Environment.open(message.environment);
      break;
    case "job":
      runJob(message.job).catch((error) =>
        scope.postMessage({
          kind: "error",
          episode_id: message.job.episode_id,
          error: describeError(error),
        })
      );
      break;
    case "abort":
      stop.abort();
      break;
  }
};

async function runJob(job: Extract<PoolRequest, { kind: "job" }>["job"]): Promise<void> {
  if (!environment || !request) throw new Error("The pool worker got a job before its set-up");
  const env = await environment;
  const { run, keepWorkspaces } = request;
  const task = env.task(job.task_id);
  const record = await runSample(
    env,
    task,
    makePolicy(run.policy, task, job.sample, scriptCache),
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
    scope.postMessage({ kind: "interrupted", episode_id: job.episode_id });
    return;
  }
  scope.postMessage({ kind: "record", episode_id: job.episode_id, line: JSON.stringify(record) });
}
