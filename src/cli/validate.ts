/** `validate`: check every task end to end; exits non-zero naming each broken task and why. */
import { type TaskValidation, validateTask } from "../rollout/validate.ts";
import { checkTaskIds } from "../task/load.ts";
import { intFlag, listFlag, parseFlags, printJson } from "./_args.ts";
import { ENVIRONMENT_FLAGS, openEnvironment } from "./_environment.ts";
import { Progress } from "./_progress.ts";

const HELP = `patchgym validate: check that every task is sound

For each task: the spec loads, the unchanged repository fails every fail_to_pass test and passes
every pass_to_pass test, the reference patch applies and earns the full reward, and a second run
gives the same outcome.

Usage: patchgym validate [--tasks ID,ID] [--concurrency N] [--json] [--tasks-dir DIR]
`;

/** Run the `validate` command. */
export async function validateCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("validate", args, {
    tasks: { type: "string" },
    concurrency: { type: "string" },
    ...ENVIRONMENT_FLAGS,
    json: { type: "boolean" },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const environment = await openEnvironment(values);
  const ids = [...new Set(listFlag(values.tasks) ?? environment.taskIds())];
  checkTaskIds(environment.tasksDir, ids);
  const results: TaskValidation[] = [];
  const progress = values.json ? null : new Progress(ids.length);
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const result = await validateTask(environment, ids[next++]);
      results.push(result);
      progress?.tick(result.task_id, result.ok ? 1 : 0, result.ok ? "ok" : "BROKEN");
    }
  };
  await Promise.all(
    Array.from({ length: intFlag("concurrency", values.concurrency, 2, 1, 64) }, worker),
  );
  progress?.finish();
  results.sort((a, b) => a.task_id.localeCompare(b.task_id));
  const broken = results.filter((r) => !r.ok);
  if (values.json) {
    printJson({ ok: broken.length === 0, tasks: results.length, broken: broken.length, results });
  } else {
    for (const r of broken) {
      console.log(`BROKEN ${r.task_id}\n${r.problems.map((p) => `  - ${p}`).join("\n")}`);
    }
    const slowest = results.reduce((m, r) => Math.max(m, r.test_ms ?? 0), 0);
    console.log(
      `${
        results.length - broken.length
      }/${results.length} tasks valid; slowest hidden test run ${slowest} ms`,
    );
  }
  return broken.length === 0 ? 0 : 1;
}
