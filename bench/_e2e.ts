/**
 * Section 4: whole samples. Reference-policy rollouts one after another, then whole graded
 * episodes against a fake model (see `_episodes.ts`), and a leak check at the end.
 */
import { ReferencePolicy } from "../src/policy/reference.ts";
import { Environment } from "../src/agent/environment.ts";
import { runSample } from "../src/rollout/sample.ts";
import { type BenchContext, subdir } from "./_context.ts";
import { benchEpisodes } from "./_episodes.ts";
import { makeRow, type Row } from "./_report.ts";
import { summarize } from "./_stats.ts";
import { entriesIn, type ProcessFacts, processFacts } from "./_system.ts";

/** Tasks of the reference rollouts: Python (unittest and pytest) and TypeScript. */
const REFERENCE_TASKS = [
  "py-median-even",
  "py-text-ngrams",
  "py-units-fahrenheit",
  "ts-cart-discounts",
  "ts-router-query-paths",
  "ts-emitter-once-order",
];
const REFERENCE_ROUNDS = 2;

/** Run the end-to-end figures and the leak check; `fast` runs fewer and smaller batches. */
export async function benchEndToEnd(
  ctx: BenchContext,
  options: { fast?: boolean } = {},
): Promise<Row[]> {
  const before = await processFacts();
  const workRoot = subdir(ctx, "e2e");
  const env = await Environment.open({ tasksDir: ctx.tasksDir, workRoot });
  const rows = [
    ...await referenceRollouts(ctx, env, options.fast ?? false),
    ...await benchEpisodes(ctx, env, options),
  ];
  ctx.log("e2e: leak check (what the sandbox keeps for reuse has its time without work to end)");
  rows.push(...leakRows(workRoot, before, await settledFacts(before)));
  return rows;
}

/**
 * How long what the sandbox keeps for reuse lives without work: a spawner thread (its `serve`
 * process and the warm interpreters it started end with it) ends after 10 s, and a margin.
 */
const KEPT_FOR_REUSE_MS = 15_000;

/**
 * The process's facts once nothing more is left than `before`, or once what the sandbox keeps for
 * reuse had {@linkcode KEPT_FOR_REUSE_MS} to end: what is still there then is left behind. Read at
 * once, the check said a quick run left three processes (the `serve` process and two warm
 * interpreters of a spawner thread still in its idle time) where a full run, whose last batches
 * ran on other threads, left none.
 */
async function settledFacts(before: ProcessFacts): Promise<ProcessFacts> {
  const deadline = performance.now() + KEPT_FOR_REUSE_MS;
  while (true) {
    const facts = await processFacts();
    const settled = facts.children.length <= before.children.length &&
      facts.fds <= before.fds + FDS_OVER;
    if (settled || performance.now() >= deadline) return facts;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Open file descriptors the leak check allows over the count before the runs. */
const FDS_OVER = 2;

async function referenceRollouts(
  ctx: BenchContext,
  env: Environment,
  fast: boolean,
): Promise<Row[]> {
  const section = "4a reference rollouts";
  const skipped: Row[] = [];
  const tasks = [];
  for (const id of REFERENCE_TASKS) {
    const missing = await missingRunner(env.task(id).spec.runner);
    if (missing) {
      skipped.push(makeRow({
        section,
        figure: `reference rollouts of ${id}: skipped`,
        unit: "-",
        note:
          `${id} runs its tests with ${missing}, which this machine lacks (install it, e.g. python3-pytest, to include it)`,
      }));
    } else {
      tasks.push(id);
    }
  }
  const rounds = fast ? 1 : REFERENCE_ROUNDS;
  const rollout = async (id: string, sample: number) => {
    const task = env.task(id);
    const started = performance.now();
    const record = await runSample(
      env,
      task,
      new ReferencePolicy(task),
      identity(id, sample, "reference"),
    );
    const wall = performance.now() - started;
    if (!record.reward?.resolved) {
      throw new Error(
        `Reference rollout of ${id} was not resolved: ${record.stop_reason} ${
          JSON.stringify(record.error)
        }`,
      );
    }
    return { record, wall };
  };
  ctx.log(`e2e: reference rollouts over ${tasks.length} tasks x ${rounds}`);
  await rollout(tasks[0], -1); // warm-up
  const walls: number[] = [];
  const floors: number[] = [];
  const envPerTurn: number[] = [];
  const testsPerTurn: number[] = [];
  const otherPerTurn: number[] = [];
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    for (const id of tasks) {
      const { record, wall } = await rollout(id, round);
      const turns = record.turns.length;
      const toolMs = (name?: string) =>
        record.turns.reduce(
          (sum, t) => sum + (t.tool && (!name || t.tool.name === name) ? t.tool.duration_ms : 0),
          0,
        );
      walls.push(wall);
      floors.push(toolMs("run_tests") + record.timings.grade_ms);
      envPerTurn.push(record.timings.env_ms / turns);
      testsPerTurn.push(toolMs("run_tests") / turns);
      otherPerTurn.push((toolMs() - toolMs("run_tests")) / turns);
    }
  }
  const total = performance.now() - started;
  const n = walls.length;
  const floorSum = floors.reduce((a, b) => a + b, 0);
  return [
    ...skipped,
    makeRow({
      section,
      figure: "reference rollouts/s (sequential, graded)",
      unit: "rollouts/s",
      summary: { median: (n * 1000) / total, p95: null, n },
      baseline: { name: "test runs + grading only", value: (n * 1000) / floorSum },
      note: `Tasks ${
        tasks.join(", ")
      }, ${rounds} rounds; the baseline is the rate if nothing but the run_tests calls and grading (from the records) took time`,
    }),
    makeRow({
      section,
      figure: "reference rollout wall",
      unit: "ms",
      values: walls,
      baseline: { name: "run_tests + grade_ms", value: summarize(floors).median },
    }),
    makeRow({
      section,
      figure: "env time per turn (timings.env_ms / turns)",
      unit: "ms",
      values: envPerTurn,
      baseline: { name: "run_tests ms / turns", value: summarize(testsPerTurn).median },
    }),
    makeRow({
      section,
      figure: "env time per turn, in-process tools only",
      unit: "ms",
      values: otherPerTurn,
    }),
  ];
}

function leakRows(workRoot: string, before: ProcessFacts, after: ProcessFacts): Row[] {
  const section = "4 leak check";
  const children = after.children;
  const left = entriesIn(workRoot);
  const fds = after.fds;
  const fdsBefore = before.fds;
  const childrenBefore = before.children.length;
  return [
    makeRow({
      section,
      figure: "child processes left after the e2e runs",
      unit: "count",
      summary: { median: children.length, p95: null, n: 1 },
      baseline: { name: "before", value: childrenBefore },
      target: { text: "0", metric: "median", op: "==", value: 0 },
      note: children.length > 0 ? `Left: pids ${children.join(", ")}` : undefined,
    }),
    makeRow({
      section,
      figure: "entries left in the workspace root",
      unit: "count",
      summary: { median: left.length, p95: null, n: 1 },
      target: { text: "0", metric: "median", op: "==", value: 0 },
      note: left.length > 0 ? `Left: ${left.slice(0, 10).join(", ")}` : undefined,
    }),
    makeRow({
      section,
      figure: "open file descriptors after the e2e runs",
      unit: "count",
      summary: { median: fds, p95: null, n: 1 },
      baseline: { name: "before", value: fdsBefore },
      target: { text: `at most before + ${FDS_OVER}`, metric: "delta", op: "<=", value: FDS_OVER },
    }),
  ];
}

/** The runner's program or module this machine lacks (`pytest`), or null when it has it. */
export async function missingRunner(runner: string): Promise<string | null> {
  if (runner !== "pytest") return null;
  const probe = await new Deno.Command("python3", {
    args: ["-c", "import pytest"],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output().catch(() => null);
  return probe?.success ? null : "pytest (python3 -m pytest)";
}

function identity(taskId: string, sample: number, group: string) {
  return {
    run_id: "bench",
    episode_id: `${group}-${taskId}-${sample}`,
    task_id: taskId,
    sample,
    group_id: `${group}-${taskId}`,
  };
}
