/** Shared test fixtures: temp task repositories, workspaces and tool contexts, cleaned up after. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { probeIsolation, Runner } from "../src/sandbox/runner.ts";
import { type Task, type TaskSpec, TaskSpecSchema } from "../src/task/spec.ts";
import type { ToolContext } from "../src/tools/types.ts";
import { snapshotDir } from "../src/workspace/snapshot.ts";
import { createWorkspace } from "../src/workspace/workspace.ts";

/** Write `files` (path to text) under `dir`. */
export function writeFiles(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

let runnerPromise: Promise<Runner> | null = null;

/** A runner with this machine's isolation, probed once per test file. */
export function testRunner(): Promise<Runner> {
  runnerPromise ??= probeIsolation().then((isolation) => new Runner({ isolation }));
  return runnerPromise;
}

/** A task spec for tests, overriding any field. */
export function fakeSpec(overrides: Partial<TaskSpec> = {}): TaskSpec {
  return TaskSpecSchema.parse({
    id: "fake",
    title: "Fake task",
    language: "python",
    difficulty: "easy",
    kind: "one_line_bug",
    statement: "Fix it",
    runner: "unittest",
    visible_tests: ["tests/test_a.py"],
    hidden_tests: ["tests/test_hidden.py"],
    fail_to_pass: ["tests/test_hidden.py::T::test_x"],
    pass_to_pass: [],
    protected_paths: ["tests/"],
    ...overrides,
  });
}

/**
 * Run `fn` with a tool context over a fresh workspace made from `files`; the temp folder is
 * removed afterwards whatever happens.
 */
export async function withContext(
  files: Record<string, string | Uint8Array>,
  fn: (ctx: ToolContext, root: string) => Promise<void>,
  overrides: Partial<TaskSpec> = {},
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "patchgym-test-" });
  try {
    const taskDir = join(root, "task");
    writeFiles(join(taskDir, "repo"), files);
    const task: Task = {
      spec: fakeSpec(overrides),
      dir: taskDir,
      repoDir: join(taskDir, "repo"),
      hiddenDir: join(taskDir, "hidden"),
      solutionPath: null,
    };
    mkdirSync(join(root, "ws"));
    const workspace = createWorkspace(snapshotDir(task.repoDir), { root: join(root, "ws") });
    await fn({ task, workspace, runner: await testRunner() }, root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}
