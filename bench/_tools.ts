/** Section 2: tool calls through `executeTool` on bundled tasks, and `search` over 10,000 files. */
import { readFileSync } from "node:fs";
import { Sandbox } from "../src/sandbox/sandbox.ts";
import { loadTask } from "../src/task/load.ts";
import type { Task } from "../src/task/spec.ts";
import { executeTool } from "../src/tools/registry.ts";
import { searchSharesOf } from "../src/tools/search.ts";
import { type ToolContext, toolContext, type ToolResult } from "../src/tools/types.ts";
import { snapshotDir } from "../src/workspace/snapshot.ts";
import { createWorkspace, type Workspace } from "../src/workspace/workspace.ts";
import { type BenchContext, spawnChecked, subdir } from "./_context.ts";
import { makeRow, type Row, type Target } from "./_report.ts";
import {
  sampleCases,
  type SampleOptions,
  summarize,
  timed,
  timedAsync,
  type Trial,
} from "./_stats.ts";
import { gridTree } from "./_trees.ts";

/** The tasks the tool calls run on. */
export const TOOL_TASKS = ["py-median-even", "ts-cart-discounts", "ts-router-query-paths"];

const IN_PROCESS: SampleOptions = { warmup: 50, min: 300, max: 5000, budgetMs: 300 };
const PATCH: SampleOptions = { warmup: 5, min: 30, max: 300, budgetMs: 1500 };
const BIG_SEARCH: SampleOptions = { warmup: 2, min: 8, max: 40, budgetMs: 5000 };
const UNDER_02: Target = { text: "< 0.2 ms", metric: "median", op: "<", value: 0.2 };
/** Found in 1% of the generated files, once each; valid for JavaScript and ripgrep alike. */
const NEEDLE = "needle_[0-9]+\\(";
/** Text on exactly the lines {@linkcode NEEDLE} matches in `gridTree`'s files. */
const LITERAL_NEEDLE = "+= needle_";

/** Measure read_file, list_files, search and apply_patch per task, then the big search. */
export async function benchTools(ctx: BenchContext): Promise<Row[]> {
  const root = subdir(ctx, "tools");
  // These tools never start a process; the sandbox is only part of the context.
  const sandbox = new Sandbox({
    isolation: {
      level: "process",
      rlimits: false,
      cgroup: null,
      mounts: null,
      setsid: false,
      hostRoot: false,
      users: null,
      seccomp: null,
      unjailedRoot: false,
    },
  });
  const rows: Row[] = [];
  for (const id of TOOL_TASKS) {
    ctx.log(`tools: ${id}`);
    const task = loadTask(`${ctx.tasksDir}/${id}`);
    rows.push(...await benchTask(task, root, sandbox));
  }
  rows.push(...await benchBigSearch(ctx, root, sandbox));
  return rows;
}

async function benchTask(task: Task, root: string, sandbox: Sandbox): Promise<Row[]> {
  const id = task.spec.id;
  const snapshot = snapshotDir(task.repoDir);
  const workspace = createWorkspace(snapshot, { root, prefix: id });
  const ctx: ToolContext = toolContext(task, { workspace, sandbox });
  const solution = readFileSync(task.solutionPath!, "utf8");
  const readPath = /^--- a\/(\S+)/m.exec(solution)?.[1] ?? snapshot.files[0].path;
  const rows: Row[] = [];
  try {
    const cases: [string, Record<string, unknown>, () => unknown, string][] = [
      [
        "read_file",
        { path: readPath },
        () => rawRead(workspace, readPath),
        "readFileSync + split lines",
      ],
      ["list_files", {}, () => rawWalk(workspace.dir), "readdir walk + sort"],
      [
        "search",
        { pattern: "return" },
        () => rawSearch(workspace.dir, /return/),
        "walk + read + RegExp per line",
      ],
    ];
    for (const [tool, args, raw, rawName] of cases) {
      // Arguments as the model sends them: a JSON string.
      const json = JSON.stringify(args);
      await expectOk(executeTool(tool, json, ctx), `${tool} on ${id}`);
      const [toolMs, rawMs] = await sampleCases([
        () => timedAsync(() => executeTool(tool, json, ctx)),
        () => timed(raw),
      ], IN_PROCESS);
      rows.push(makeRow({
        section: "2 tools",
        figure: `${tool} (${id})`,
        unit: "ms",
        values: toolMs,
        baseline: { name: rawName, value: summarize(rawMs).median },
        target: UNDER_02,
      }));
    }
    rows.push(await benchApplyPatch(task, ctx, solution, root));
  } finally {
    await workspace.remove();
  }
  return rows;
}

/** apply_patch of the reference patch on a fresh workspace each time, against `patch -p1`. */
async function benchApplyPatch(
  task: Task,
  ctx: ToolContext,
  solution: string,
  root: string,
): Promise<Row> {
  const snapshot = ctx.workspace.original;
  const args = JSON.stringify({ patch: solution });
  const tool: Trial = async () => {
    const workspace = createWorkspace(snapshot, { root, prefix: "patch" });
    try {
      let result: ToolResult | null = null;
      const ms = await timedAsync(async () => {
        result = await executeTool("apply_patch", args, { ...ctx, workspace });
      });
      await expectOk(Promise.resolve(result!), `apply_patch on ${task.spec.id}`);
      return ms;
    } finally {
      await workspace.remove();
    }
  };
  const bare: Trial = async () => {
    const workspace = createWorkspace(snapshot, { root, prefix: "gnu-patch" });
    try {
      return await timedAsync(() =>
        spawnChecked("patch", ["-p1", "-s", "-i", task.solutionPath!], workspace.dir)
      );
    } finally {
      await workspace.remove();
    }
  };
  const [toolMs, bareMs] = await sampleCases([tool, bare], PATCH);
  return makeRow({
    section: "2 tools",
    figure: `apply_patch solution.patch (${task.spec.id})`,
    unit: "ms",
    values: toolMs,
    baseline: { name: "spawned patch -p1", value: summarize(bareMs).median },
  });
}

/** `search` over 100 folders x 100 files against `rg -n --sort path` on the same tree. */
async function benchBigSearch(ctx: BenchContext, root: string, sandbox: Sandbox): Promise<Row[]> {
  const started = performance.now();
  const snapshot = gridTree(100, 100, 100);
  const workspace = createWorkspace(snapshot, { root, prefix: "big" });
  ctx.log(
    `tools: wrote ${snapshot.files.length} files in ${
      ((performance.now() - started) / 1000).toFixed(1)
    } s`,
  );
  const task = loadTask(`${ctx.tasksDir}/${TOOL_TASKS[0]}`);
  const toolCtx: ToolContext = toolContext(task, { workspace, sandbox });
  const args = JSON.stringify({ pattern: NEEDLE, fixed_strings: false });
  // The same lines as literal text, which a big repository's search splits among its workers.
  const literalArgs = JSON.stringify({ pattern: LITERAL_NEEDLE, fixed_strings: true });
  try {
    const result = await expectOk(executeTool("search", args, toolCtx), "search over 10,000 files");
    const matches = result.meta?.matches;
    const literal = await expectOk(
      executeTool("search", literalArgs, toolCtx),
      "literal search over 10,000 files",
    );
    const rg = await hasRipgrep();
    const paths = snapshot.files.map((f) => `${workspace.dir}/${f.path}`);
    const cases: Trial[] = [
      () => timedAsync(() => executeTool("search", args, toolCtx)),
      () => timed(() => paths.forEach((path) => Deno.readTextFileSync(path))),
      () => timedAsync(() => executeTool("search", literalArgs, toolCtx)),
    ];
    let note = `Both find ${matches} matching lines`;
    let literalNote = `Both find ${literal.meta?.matches} matching lines`;
    if (rg) {
      const rgArgs = ["-n", "--sort", "path", NEEDLE, "."];
      const rgLiteralArgs = ["-n", "--sort", "path", "-F", LITERAL_NEEDLE, "."];
      const lines = async (argv: string[]) =>
        new TextDecoder().decode((await spawnChecked("rg", argv, workspace.dir)).stdout)
          .trimEnd().split("\n").length;
      const rgLines = await lines(rgArgs);
      if (rgLines !== matches) note = `Mismatch: search found ${matches} lines, rg ${rgLines}`;
      const rgLiteralLines = await lines(rgLiteralArgs);
      if (rgLiteralLines !== literal.meta?.matches) {
        literalNote =
          `Mismatch: search found ${literal.meta?.matches} lines, rg -F ${rgLiteralLines}`;
      }
      cases.push(
        () => timedAsync(() => spawnChecked("rg", rgArgs, workspace.dir)),
        () => timedAsync(() => spawnChecked("rg", rgLiteralArgs, workspace.dir)),
      );
    } else {
      note = literalNote = "rg is not installed: no baseline";
    }
    const [toolMs, readMs, literalMs, rgMs, rgLiteralMs] = await sampleCases(cases, BIG_SEARCH);
    const baseline = rgMs
      ? { name: "rg -n --sort path (spawned)", value: summarize(rgMs).median }
      : null;
    const shares = searchSharesOf({ pattern: LITERAL_NEEDLE, fixed_strings: true }, paths.length);
    return [
      makeRow({
        section: "2 tools",
        figure: "search, 10,000-file tree (literal text, 1% of files match)",
        unit: "ms",
        values: literalMs,
        baseline: rgLiteralMs
          ? { name: "rg -n --sort path -F (spawned)", value: summarize(rgLiteralMs).median }
          : null,
        target: rg ? { text: "<= 2x rg", metric: "ratio", op: "<=", value: 2 } : null,
        note: `${literalNote}; searched by ${shares} worker(s) at once (one per core, at most 4)`,
      }),
      makeRow({
        section: "2 tools",
        figure: "search, 10,000-file tree (regex, 1% of files match)",
        unit: "ms",
        values: toolMs,
        baseline,
        target: rg ? { text: "<= 2x rg", metric: "ratio", op: "<=", value: 2 } : null,
        note:
          `${note}; one worker: a regular expression is never split (a worker past its deadline cannot be stopped, docs/benchmarks.md)`,
      }),
      makeRow({
        section: "2 tools (floor)",
        figure: "Deno.readTextFileSync of the same 10,000 files, nothing else",
        unit: "ms",
        values: readMs,
        baseline,
        note:
          "Diagnostic floor, sampled with the row above: without --allow-all, Deno checks every file read by resolving each component of its path (one readlink per component), so reading alone costs this much here; no target",
      }),
    ];
  } finally {
    await workspace.remove();
  }
}

async function hasRipgrep(): Promise<boolean> {
  try {
    return (await new Deno.Command("rg", { args: ["--version"], stdout: "null" }).output()).success;
  } catch {
    return false;
  }
}

async function expectOk(
  pending: Promise<ToolResult>,
  what: string,
): Promise<ToolResult & { ok: true }> {
  const result = await pending;
  if (!result.ok) {
    throw new Error(`Benchmark call ${what} failed: [${result.code}] ${result.message}`);
  }
  return result;
}

function rawRead(workspace: Workspace, path: string): number {
  return Deno.readTextFileSync(`${workspace.dir}/${path}`).split("\n").length;
}

function rawWalk(dir: string, prefix = "", out: string[] = []): string[] {
  for (const entry of Deno.readDirSync(dir)) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) rawWalk(`${dir}/${entry.name}`, path, out);
    else out.push(path);
  }
  if (prefix === "") out.sort();
  return out;
}

function rawSearch(dir: string, pattern: RegExp): string[] {
  const hits: string[] = [];
  for (const path of rawWalk(dir)) {
    const lines = Deno.readTextFileSync(`${dir}/${path}`).split("\n");
    for (let i = 0; i < lines.length; i++) {
      if (pattern.test(lines[i])) hits.push(`${path}:${i + 1}:${lines[i]}`);
    }
  }
  return hits;
}
