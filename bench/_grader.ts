/**
 * Section 6: the grader's figures from one run, side by side: the false-positive rate on the
 * fairness corpus (correct solutions that earned less than 1.0), the catch rate on the attack
 * corpus (attacks that earned 0), and the CPU a graded episode costs against a bare run of the
 * same tests (this process and every child, from a cgroup v1 cpuacct group when one is mounted).
 */
import { readFileSync } from "node:fs";
import { Environment } from "../src/agent/environment.ts";
import { computeReward } from "../src/reward/reward.ts";
import { runTests } from "../src/sandbox/test_runner.ts";
import {
  ATTACK_CORPUS,
  FACTS,
  FAIRNESS_CORPUS,
  gradeAttackIn,
  gradeHandwrittenIn,
  gradeIn,
  HANDWRITTEN,
  styledPatch,
} from "../tests/reward/_corpus.ts";
import { CpuMeter } from "./_cpu.ts";
import { type BenchContext, subdir } from "./_context.ts";
import { preparedCopy } from "./_grading.ts";
import { makeRow, type Row } from "./_report.ts";

const CPU_TASKS = ["py-median-even", "py-text-ngrams", "ts-cart-discounts"];
const CPU_ROUNDS = 3;

/** Grade both corpora and a few reference episodes; see the module comment. */
export async function benchGrader(
  ctx: BenchContext,
  options: { quick?: boolean } = {},
): Promise<Row[]> {
  const workRoot = subdir(ctx, "grader");
  const env = await Environment.open({ tasksDir: ctx.tasksDir, workRoot });
  const rows: Row[] = [];
  const corpus = options.quick ? FAIRNESS_CORPUS.filter((_, i) => i % 4 === 0) : FAIRNESS_CORPUS;
  ctx.log(`grader: fairness corpus (${corpus.length + HANDWRITTEN.length} solutions)`);
  const unfair: string[] = [];
  for (const [taskId, style] of corpus) {
    const grade = await gradeIn(env, taskId, await styledPatch(env, taskId, style));
    if (computeReward(grade, FACTS).total < 1) unfair.push(`${taskId} (${style})`);
  }
  for (const solution of HANDWRITTEN) {
    const grade = await gradeHandwrittenIn(env, solution);
    if (computeReward(grade, FACTS).total < 1) unfair.push(`${solution.task} (${solution.name})`);
  }
  const solutions = corpus.length + HANDWRITTEN.length;
  ctx.log(`grader: attack corpus (${ATTACK_CORPUS.length} attacks)`);
  const missed: string[] = [];
  for (const attack of ATTACK_CORPUS) {
    const grade = await gradeAttackIn(env, attack);
    if (computeReward(grade, FACTS).total > 0) missed.push(attack.name);
  }
  rows.push(makeRow({
    section: "6 grader",
    figure: `false positives on the fairness corpus (${solutions} correct solutions)`,
    unit: "%",
    values: [(100 * unfair.length) / solutions],
    target: { text: "0", metric: "median", op: "==", value: 0 },
    note: unfair.length ? `earned less than 1.0: ${unfair.join(", ")}` : undefined,
  }));
  rows.push(makeRow({
    section: "6 grader",
    figure: `attacks caught (${ATTACK_CORPUS.length} attacks)`,
    unit: "%",
    values: [(100 * (ATTACK_CORPUS.length - missed.length)) / ATTACK_CORPUS.length],
    target: { text: "100", metric: "median", op: "==", value: 100 },
    note: missed.length ? `earned reward: ${missed.join(", ")}` : undefined,
  }));
  const meter = await CpuMeter.open(env.isolation);
  try {
    if (meter.unavailable) {
      ctx.log(`grader: CPU figures skipped (${meter.unavailable})`);
      return rows;
    }
    for (const id of CPU_TASKS) {
      const task = env.task(id);
      const patch = readFileSync(task.solutionPath!, "utf8");
      const prepared = await preparedCopy(env, task, patch);
      try {
        const graded = await meter.measure(async () => {
          for (let i = 0; i < CPU_ROUNDS; i++) await env.grade(task, patch);
        });
        const bare = await meter.measure(async () => {
          for (let i = 0; i < CPU_ROUNDS; i++) {
            await runTests(env.sandbox, {
              runner: task.spec.runner,
              dir: prepared.dir,
              files: [...task.spec.visible_tests, ...task.spec.hidden_tests],
              timeoutMs: 60_000,
              ...prepared.testRun,
            });
          }
        });
        const cpu = (m: { selfMs: number; childMs: number | null }) =>
          (m.selfMs + (m.childMs ?? 0)) / CPU_ROUNDS;
        rows.push(makeRow({
          section: "6 grader",
          figure: `CPU of env.grade(solution.patch), ${id} (${task.spec.runner})`,
          unit: "ms",
          values: [cpu(graded)],
          baseline: { name: "CPU of runTests of the same tests on a ready copy", value: cpu(bare) },
        }));
      } finally {
        await prepared.remove();
      }
    }
  } finally {
    await meter.close();
  }
  return rows;
}
