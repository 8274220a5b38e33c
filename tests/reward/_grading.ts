/** Helpers for grading patches of the bundled tasks in tests: temp environments and diffs. */
import { Environment } from "../../src/agent/environment.ts";
import type { Task } from "../../src/task/spec.ts";
import { diffTree } from "../../src/patch/diff.ts";
import { snapshotDir, writeSnapshot } from "../../src/workspace/snapshot.ts";
import { fileURLToPath } from "node:url";

export const TASKS_DIR = fileURLToPath(new URL("../../tasks", import.meta.url));
/** A Python task run with unittest. */
export const UNITTEST_TASK = "py-median-even";
/** A Python task run with pytest. */
export const PYTEST_TASK = "py-text-ngrams";
/** A TypeScript task run with deno test. */
export const DENO_TASK = "ts-cart-discounts";

/** Open an environment over the bundled tasks with a temp work root, removed afterwards. */
export async function withEnv(fn: (env: Environment) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "patchgym-grade-test-" });
  try {
    await fn(await Environment.open({ tasksDir: TASKS_DIR, workRoot: root }));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** Run `fn` on a temp copy of the task's pristine repository, removed afterwards. */
export async function withRepoCopy<T>(
  env: Environment,
  task: Task,
  fn: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-grade-repo-" });
  try {
    writeSnapshot(env.snapshot(task), dir);
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The git-style diff a workspace would submit after `mutate` changed a copy of the repository. */
export function patchOf(
  env: Environment,
  task: Task,
  mutate: (dir: string) => void | Promise<void>,
): Promise<string> {
  return withRepoCopy(env, task, async (dir) => {
    await mutate(dir);
    return (await diffTree(snapshotDir(task.repoDir), dir)).patch;
  });
}
