/** Section 5: time to score a sample with `env.grade`, against the bare test run it contains. */
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { Environment } from "../src/agent/environment.ts";
import { runTests, testRunPlaces } from "../src/sandbox/test_runner.ts";
import type { Task } from "../src/task/spec.ts";
import { applyFilePatches } from "../src/patch/apply.ts";
import { parsePatch } from "../src/patch/parse.ts";
import { type BenchContext, subdir } from "./_context.ts";
import { makeRow, type Row } from "./_report.ts";
import { sampleCases, type SampleOptions, summarize, timedAsync, type Trial } from "./_stats.ts";

const GRADE_TASKS = ["py-median-even", "ts-cart-discounts"];
const GRADE: SampleOptions = { warmup: 2, min: 10, max: 40, budgetMs: 4000 };

/** Grade each task's reference patch repeatedly. */
export async function benchGrading(ctx: BenchContext): Promise<Row[]> {
  const workRoot = subdir(ctx, "grade");
  const env = await Environment.open({ tasksDir: ctx.tasksDir, workRoot });
  const rows: Row[] = [];
  for (const id of GRADE_TASKS) {
    ctx.log(`grading: ${id}`);
    const task = env.task(id);
    // A runner this machine lacks (e.g. no pytest) is noted and skipped, never timed as a failure.
    const [missing] = await env.runnerProblems([id]);
    if (missing) {
      rows.push(makeRow({
        section: "5 grading",
        figure: `env.grade(solution.patch), ${id} (${task.spec.runner}, ${env.isolation.level})`,
        unit: "ms",
        note: `skipped: ${missing}`,
      }));
      continue;
    }
    const patch = readFileSync(task.solutionPath!, "utf8");
    const prepared = await preparedCopy(env, task, patch);
    try {
      const grade: Trial = () =>
        timedAsync(async () => {
          const result = await env.grade(task, patch);
          if (result.fail_to_pass.passed !== result.fail_to_pass.total) {
            throw new Error(`Grading ${id} did not pass: ${JSON.stringify(result.fail_to_pass)}`);
          }
        });
      const testsOnly: Trial = () =>
        timedAsync(() =>
          runTests(env.sandbox, {
            runner: task.spec.runner,
            dir: prepared.dir,
            files: [...task.spec.visible_tests, ...task.spec.hidden_tests],
            timeoutMs: 60_000,
            ...prepared.testRun,
          })
        );
      const [gradeMs, testsMs] = await sampleCases([grade, testsOnly], GRADE);
      rows.push(makeRow({
        section: "5 grading",
        figure: `env.grade(solution.patch), ${id} (${task.spec.runner}, ${env.isolation.level})`,
        unit: "ms",
        values: gradeMs,
        baseline: {
          name: "runTests of the same tests on a ready copy",
          value: summarize(testsMs).median,
        },
      }));
    } finally {
      await prepared.remove();
    }
  }
  return rows;
}

/**
 * A copy of the task repository with the patch applied and the hidden tests in place, made as an
 * episode's workspace is (its own capped file system where it can have one); `runTests` takes
 * `testRun` to make its report folder where `run_tests` would.
 */
export async function preparedCopy(
  env: Environment,
  task: Task,
  patch: string,
): Promise<
  { dir: string; testRun: ReturnType<typeof testRunPlaces>; remove(): Promise<void> }
> {
  const copy = env.newWorkspace(task);
  try {
    await copy.ready;
    const parsed = parsePatch(patch);
    if (!parsed.ok) {
      throw new Error(`Cannot parse the reference patch of ${task.spec.id}: ${parsed.message}`);
    }
    const applied = await applyFilePatches(copy.dir, parsed.files);
    if (!applied.ok) {
      throw new Error(`Cannot apply the reference patch of ${task.spec.id}: ${applied.message}`);
    }
    for (const path of task.spec.hidden_tests) {
      await Deno.mkdir(dirname(`${copy.dir}/${path}`), { recursive: true });
      await Deno.writeFile(`${copy.dir}/${path}`, await Deno.readFile(`${task.hiddenDir}/${path}`));
    }
  } catch (error) {
    await copy.remove();
    throw error;
  }
  return {
    dir: copy.dir,
    testRun: testRunPlaces(copy),
    remove: () => copy.remove(),
  };
}
