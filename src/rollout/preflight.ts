/**
 * The check a rollout makes before it spends model time: each task's unchanged repository is
 * graded once, and a task whose `fail_to_pass` tests already pass is left out, since doing nothing
 * would earn its reward; so is a task whose dependency environment is not built or broken (an
 * environment error, not the task's fault: the warning names the command that builds it). Skipping (rather than refusing the whole run) lets a dataset with a few
 * bad records still train on the rest; the caller reports the count and the reasons.
 */
import { patchgymCommand } from "../hint.ts";
import type { Environment } from "../agent/environment.ts";

/** A task the preflight left out, and why. */
export interface SkippedTask {
  task_id: string;
  /** The `fail_to_pass` tests that pass on the unchanged repository. */
  already_passing: string[];
  /** Why the task's dependency environment cannot be used, when that is the reason. */
  environment_error?: string;
}

/** Which tasks a run may use. */
export interface PreflightResult {
  /** Task ids to run, in the order given. */
  ready: string[];
  skipped: SkippedTask[];
}

/**
 * Grade every task's unchanged repository, `concurrency` at a time, and split the ids into those
 * ready to run and those whose `fail_to_pass` tests already pass. `onTask` is told as each task is
 * checked (for progress). After `signal` aborts, the result holds only the tasks checked.
 */
export async function preflight(
  env: Environment,
  ids: string[],
  options: {
    concurrency?: number;
    onTask?: (id: string, skipped: boolean) => void;
    /** Aborting it starts no further check; the ones in flight finish. */
    signal?: AbortSignal;
  } = {},
): Promise<PreflightResult> {
  const skippedById = new Map<string, SkippedTask>();
  let next = 0;
  const worker = async () => {
    while (next < ids.length && !options.signal?.aborted) {
      const id = ids[next++];
      const problem = env.environment(env.task(id))?.error;
      if (problem !== undefined) {
        skippedById.set(id, { task_id: id, already_passing: [], environment_error: problem });
        options.onTask?.(id, true);
        continue;
      }
      const before = await env.grade(env.task(id), "");
      const passing = Object.entries(before.fail_to_pass.tests)
        .filter(([, outcome]) => outcome === "passed")
        .map(([test]) => test);
      if (passing.length > 0) skippedById.set(id, { task_id: id, already_passing: passing });
      options.onTask?.(id, passing.length > 0);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency ?? 4, ids.length));
  await Promise.all(Array.from({ length: workers }, worker));
  const checked = ids.slice(0, next);
  return {
    ready: checked.filter((id) => !skippedById.has(id)),
    skipped: checked.filter((id) => skippedById.has(id)).map((id) => skippedById.get(id)!),
  };
}

/** A warning line for people about the tasks a preflight skipped, or null when none were. */
export function skippedWarning(skipped: SkippedTask[], total: number): string | null {
  if (skipped.length === 0) return null;
  const passing = skipped.filter((s) => s.environment_error === undefined);
  const unbuilt = skipped.filter((s) => s.environment_error !== undefined);
  const parts: string[] = [];
  if (passing.length > 0) {
    const lines = passing.map((s) =>
      `  - ${s.task_id}: fail_to_pass ${
        s.already_passing.map((t) => `"${t}"`).join(", ")
      } already pass${s.already_passing.length === 1 ? "es" : ""} on the unchanged repository`
    );
    parts.push(
      `Skipping ${passing.length} of ${total} tasks whose fail_to_pass tests already pass (doing nothing would earn their reward); run "${
        patchgymCommand("validate")
      }" for details:\n${lines.join("\n")}`,
    );
  }
  if (unbuilt.length > 0) {
    const lines = unbuilt.map((s) => `  - ${s.task_id}: ${s.environment_error}`);
    parts.push(
      `Skipping ${unbuilt.length} of ${total} tasks whose dependency environment cannot be used (an environment error, not the task's):\n${
        lines.join("\n")
      }`,
    );
  }
  return parts.join("\n");
}
