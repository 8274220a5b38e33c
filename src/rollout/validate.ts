/**
 * End-to-end task validation: the reference patch applies and earns the full reward, the unchanged
 * repository fails every `fail_to_pass` test and passes every `pass_to_pass` test, and a second
 * graded run gives the same outcome. A task without a reference patch is `unverified`: nothing
 * shows it can be solved, so it is never reported valid.
 */
import { readFileSync } from "node:fs";
import { TaskError } from "../errors.ts";
import type { GradeResult } from "../reward/grade.ts";
import type { Environment } from "../agent/environment.ts";

/**
 * The verdict on one task: `valid` (every check passed, reference patch included), `unverified`
 * (the unchanged repository checks out but there is no reference patch, so solvability is
 * untested), `broken` (some check failed; `problems` says which) or `environment_error` (its
 * dependency environment is not built or broken: the machine's fault, not the task's).
 */
export type ValidationStatus = "valid" | "unverified" | "broken" | "environment_error";

/** The verdict on one task. */
export interface TaskValidation {
  task_id: string;
  status: ValidationStatus;
  /** Whether the task is `valid`. */
  ok: boolean;
  problems: string[];
  /** Milliseconds of the hidden test run on the reference solution (or the original repository). */
  test_ms: number | null;
  /**
   * With the reference solution: how many `fail_to_pass` tests were judged wholly outside the
   * jail, and which were judged inside without a mutant canary (the task is weakly guarded when
   * any are); null without a reference run.
   */
  guard: { outside: number; total: number; unguarded: string[] } | null;
}

/** Validate one task; never throws for a broken task, only lists its problems. */
export async function validateTask(env: Environment, id: string): Promise<TaskValidation> {
  const problems: string[] = [];
  let task;
  try {
    task = env.task(id);
  } catch (error) {
    if (!(error instanceof TaskError)) throw error;
    return {
      task_id: id,
      status: "broken",
      ok: false,
      problems: error.problems,
      test_ms: null,
      guard: null,
    };
  }
  const environment = env.environment(task);
  if (environment?.error) {
    return {
      task_id: id,
      status: "environment_error",
      ok: false,
      problems: [environment.error],
      test_ms: null,
      guard: null,
    };
  }
  const before = await env.grade(task, "");
  problems.push(...unchangedProblems(before));
  let testMs = before.run.duration_ms;
  let guard: TaskValidation["guard"] = null;
  if (task.solutionPath) {
    const patch = readFileSync(task.solutionPath, "utf8");
    const first = await env.grade(task, patch);
    testMs = first.run.duration_ms;
    const f2p = Object.keys(first.fail_to_pass.tests);
    guard = {
      outside: first.judged_outside.filter((t) => f2p.includes(t)).length,
      total: f2p.length,
      unguarded: first.unguarded,
    };
    if (!first.patch_applied) problems.push(`reference patch does not apply: ${first.patch_error}`);
    else {
      for (const list of ["fail_to_pass", "pass_to_pass"] as const) {
        for (const [tid, outcome] of Object.entries(first[list].tests)) {
          if (outcome !== "passed") {
            problems.push(
              `${list} test "${tid}" is ${outcome} with the reference patch${
                failureDetail(first, tid)
              }`,
            );
          }
        }
      }
      const second = await env.grade(task, patch);
      if (outcomeKey(second) !== outcomeKey(first)) {
        problems.push(
          "a second graded run of the reference patch gave a different outcome (flaky tests)",
        );
      }
    }
  }
  const status: ValidationStatus = problems.length > 0
    ? "broken"
    : task.solutionPath
    ? "valid"
    : "unverified";
  if (status === "unverified") {
    problems.push(
      "no reference patch, so nothing shows the task can be solved; add solution.patch",
    );
  }
  return { task_id: id, status, ok: status === "valid", problems, test_ms: testMs, guard };
}

/**
 * What is wrong with a task's unchanged repository: `fail_to_pass` tests that already pass (the
 * task rewards doing nothing) and `pass_to_pass` tests that do not pass.
 */
export function unchangedProblems(before: GradeResult): string[] {
  const problems: string[] = [];
  for (const [tid, outcome] of Object.entries(before.fail_to_pass.tests)) {
    if (outcome === "passed") {
      problems.push(`fail_to_pass test "${tid}" already passes on the unchanged repository`);
    }
  }
  for (const [tid, outcome] of Object.entries(before.pass_to_pass.tests)) {
    if (outcome !== "passed") {
      problems.push(
        `pass_to_pass test "${tid}" is ${outcome} on the unchanged repository${
          failureDetail(before, tid)
        }`,
      );
    }
  }
  return problems;
}

/** `: <the last lines of the test's failure>` (a collection error included), or nothing. */
function failureDetail(grade: GradeResult, id: string): string {
  const text = grade.failures[id];
  if (!text) return "";
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "" && l !== "...");
  const collection = text.startsWith("collection error") ? "collection error: " : "";
  // The error line says most: the last line naming an error or assertion, and what follows it.
  const at = lines.findLastIndex((l) => /Error|Exception|assert/i.test(l));
  const shown = at >= 0 ? lines.slice(Math.max(0, at - 1), at + 2) : lines.slice(-3);
  return `: ${collection}${shown.join(" | ").replace(/\s+/g, " ").slice(0, 400)}`;
}

function outcomeKey(grade: GradeResult): string {
  return JSON.stringify([grade.patch_applied, grade.fail_to_pass.tests, grade.pass_to_pass.tests]);
}
