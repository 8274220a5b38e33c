/** Shared test fixtures: temp task repositories, workspaces and tool contexts, cleaned up after. */
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { probeIsolation, Sandbox } from "../src/sandbox/sandbox.ts";
import { type Task, type TaskSpec, TaskSpecSchema } from "../src/task/spec.ts";
import { executeTool } from "../src/tools/registry.ts";
import { type ToolContext, toolContext, type ToolResult } from "../src/tools/types.ts";
import type { EpisodeSetup } from "../src/agent/episode.ts";
import type { ChildSpec } from "../src/sandbox/_child.ts";
import { snapshotDir } from "../src/workspace/snapshot.ts";
import { createWorkspace, type Workspace } from "../src/workspace/workspace.ts";

/** A spawner's child that prints `word` in `cwd` (no sandbox: the spawner's own machinery). */
export function echoSpec(word: string, cwd: string): ChildSpec {
  return {
    argv: ["echo", word],
    cwd,
    env: { PATH: "/usr/bin:/bin" },
    stdin: null,
    cap: 1024,
    timeoutMs: 10_000,
    detached: true,
    killGroup: true,
    sweep: null,
  };
}

/** A repeatable stand-in for the secure random source of `reward/canary.ts`. */
export function seeded(seed: number): (n: number) => number {
  // mulberry32: every bit well mixed, so small ranges (a coin, a place among three) vary too.
  let state = seed >>> 0;
  return (n) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296 * n) | 0;
  };
}

/** Write `files` (path to text) under `dir`. */
export function writeFiles(dir: string, files: Record<string, string | Uint8Array>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

let runnerPromise: Promise<Sandbox> | null = null;

/** A runner with this machine's isolation, probed once per test file. */
export function testSandbox(): Promise<Sandbox> {
  runnerPromise ??= probeIsolation().then((isolation) => new Sandbox({ isolation }));
  return runnerPromise;
}

/**
 * Run `fn` with a fresh temp folder (its real path, so the jail's bind checks take it), named with
 * `prefix`, removed afterwards with whatever it holds.
 */
export async function withTempDir(
  fn: (dir: string) => Promise<void> | void,
  prefix = "patchgym-test-",
): Promise<void> {
  const dir = realpathSync(await Deno.makeTempDir({ prefix }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Run `fn` with a fresh workspace folder `ws` in a temp folder `base` of its own. */
export function withWorkspace(
  fn: (ws: string, base: string) => Promise<void>,
  prefix = "patchgym-ws-",
): Promise<void> {
  return withTempDir((base) => {
    const ws = join(base, "ws");
    mkdirSync(ws);
    return fn(ws, base);
  }, prefix);
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
 * Run `fn` with what an episode runs on (a fake task, a fresh workspace made from `files`, this
 * machine's sandbox); the temp folder is removed afterwards whatever happens.
 */
export async function withSetup(
  files: Record<string, string | Uint8Array>,
  fn: (setup: EpisodeSetup, root: string) => Promise<void>,
  overrides: Partial<TaskSpec> = {},
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "patchgym-test-" });
  let workspace: Workspace | null = null;
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
    workspace = createWorkspace(snapshotDir(task.repoDir), { root: join(root, "ws") });
    await fn({ task, workspace, sandbox: await testSandbox() }, root);
  } finally {
    // First what holds the workspace (the jail made ahead for a next command), as an episode does.
    await workspace?.remove();
    await Deno.remove(root, { recursive: true });
  }
}

/** {@linkcode withSetup} with the tools' view of it: a tool context. */
export function withContext(
  files: Record<string, string | Uint8Array>,
  fn: (ctx: ToolContext, root: string) => Promise<void>,
  overrides: Partial<TaskSpec> = {},
): Promise<void> {
  return withSetup(files, (setup, root) => fn(toolContext(setup.task, setup), root), overrides);
}

/** The agent's `run_command` of `python3 -c source`, through the sandbox of `ctx`. */
export function runPython(ctx: ToolContext, source: string): Promise<ToolResult> {
  return executeTool("run_command", { argv: ["python3", "-c", source] }, ctx);
}

/** Host pids of processes whose command line contains `token` (through `pgrep`: Deno needs
 * --allow-all to list /proc). */
export async function pidsWith(token: string): Promise<number[]> {
  const { stdout } = await new Deno.Command("pgrep", { args: ["-f", token], stdout: "piped" })
    .output();
  return new TextDecoder().decode(stdout).split("\n").filter(Boolean).map(Number);
}

/**
 * A fork bomb bounded by a counter (at most 2^7 processes even with no cap at all, so a broken
 * defense cannot starve the machine): each process forks up to 7 times, then sleeps.
 */
export const FORK_BOMB = (token: string) =>
  `# ${token}
import os, time
refused = 0
for i in range(7):
    try:
        if os.fork() == 0:
            continue
    except OSError:
        refused += 1
if refused:
    print("fork refused", flush=True)
time.sleep(60)
`;

/** Mount points under `dir` (through `sh`: Deno reads /proc/self only with --allow-all). */
export async function mountsUnder(dir: string): Promise<string[]> {
  const out = await new Deno.Command("sh", {
    args: ["-c", 'while read -r _ _ _ _ mp _; do echo "$mp"; done < /proc/self/mountinfo'],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((m) => m.startsWith(`${dir}/`));
}

/** The first of `names` found on this process's PATH, as a path, or null: none is there. */
export function programOnPath(...names: string[]): string | null {
  for (const name of names) {
    for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
      try {
        if (Deno.statSync(`${dir}/${name}`).isFile) return `${dir}/${name}`;
      } catch {
        // Not there.
      }
    }
  }
  return null;
}
