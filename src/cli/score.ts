/** `score`: grade a patch file for a task offline, with the same grader rollouts use. */
import { exitOnSignal } from "../workspace/root.ts";
import { patchgymCommand } from "../hint.ts";
import { readFileSync } from "node:fs";
import { UsageError } from "../errors.ts";
import { computeReward } from "../reward/reward.ts";
import { changedLines } from "../patch/stats.ts";
import { referencePatchLines } from "../agent/finish.ts";
import { parseFlags, printJson } from "./_args.ts";
import { ENVIRONMENT_FLAGS, openEnvironment } from "./_environment.ts";

const HELP = `patchgym score: grade a patch against a task's hidden tests

Usage: patchgym score --task ID --patch FILE [--json] [--tasks-dir DIR] [--work-dir DIR]

The patch (unified diff, git diff or Codex envelope) is applied to a fresh pristine copy of the
task, tests and test configuration are restored from the task, and the hidden tests run in the
sandbox. Use --patch - to read the patch from stdin. Exit code 1 when the patch does not apply.
`;

/** Run the `score` command. */
export async function scoreCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("score", args, {
    task: { type: "string" },
    patch: { type: "string" },
    json: { type: "boolean" },
    ...ENVIRONMENT_FLAGS,
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!values.task) {
    throw new UsageError(
      `score: --task ID is required; run "${patchgymCommand("tasks")}" to list ids`,
    );
  }
  if (!values.patch) {
    throw new UsageError("score: --patch FILE is required (a unified diff; - for stdin)");
  }
  let patch: string;
  try {
    patch = values.patch === "-"
      ? await new Response(Deno.stdin.readable).text()
      : readFileSync(values.patch, "utf8");
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable) throw error;
    throw new UsageError(`score: cannot read patch "${values.patch}": ${(error as Error).message}`);
  }
  // Ctrl-C exits at once, through the exit hook that removes this process's workspace folder.
  exitOnSignal("SIGINT");
  const environment = await openEnvironment(values);
  const task = environment.task(values.task);
  const grade = await environment.grade(task, patch);
  const reward = computeReward(grade, {
    submitted: false,
    submit_status: null,
    invalid_tool_calls: 0,
    turns: 0,
    patch_lines: changedLines(patch),
    reference_patch_lines: referencePatchLines(task),
  });
  if (values.json) {
    printJson({ task_id: task.spec.id, reward, grade });
  } else {
    const c = reward.components;
    console.log(
      `${task.spec.id}: reward ${reward.total} (${reward.resolved ? "resolved" : "not resolved"})`,
    );
    console.log(
      `  fail_to_pass ${c.fail_to_pass.passed}/${c.fail_to_pass.total}   pass_to_pass ${c.pass_to_pass.passed}/${c.pass_to_pass.total}`,
    );
    if (!grade.patch_applied) console.log(`  patch did not apply: ${grade.patch_error}`);
    for (const [list, tests] of Object.entries(reward.tests)) {
      for (const [id, outcome] of Object.entries(tests)) {
        if (outcome !== "passed") console.log(`  ${list} ${outcome}: ${id}`);
      }
    }
  }
  if (!grade.patch_applied) {
    console.error(
      `The patch did not apply to ${task.spec.id}: ${grade.patch_error}; check that it is a diff of this task's repository`,
    );
    return 1;
  }
  return 0;
}
