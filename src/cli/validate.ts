/** `validate`: check every task end to end; exits non-zero naming each broken task and why. */
import { exitOnSignal } from "../workspace/root.ts";
import { type TaskValidation, validateTask } from "../rollout/validate.ts";
import { checkTaskIds } from "../task/load.ts";
import { intFlag, listFlag, parseFlags, printJson } from "./_args.ts";
import { ENVIRONMENT_FLAGS, openEnvironment } from "./_environment.ts";
import { Progress } from "./_progress.ts";

const HELP = `patchgym validate: check that every task is sound

For each task: the spec loads, the unchanged repository fails every fail_to_pass test and passes
every pass_to_pass test, the reference patch applies and earns the full reward, and a second run
gives the same outcome. Each task is valid, unverified (no reference patch: the unchanged
repository checks out, but nothing shows the task can be solved) or broken.

Exit code 0 when every task is valid (or unverified, with --allow-unverified), else 1.

Usage: patchgym validate [--tasks ID,ID] [--concurrency N] [--allow-unverified] [--json]
                         [--tasks-dir DIR]
`;

/** Run the `validate` command. */
export async function validateCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("validate", args, {
    tasks: { type: "string" },
    concurrency: { type: "string" },
    "allow-unverified": { type: "boolean" },
    ...ENVIRONMENT_FLAGS,
    json: { type: "boolean" },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  // Ctrl-C exits at once, through the exit hook that removes this process's workspace folder.
  exitOnSignal("SIGINT");
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
      const guard = result.guard
        ? `, ${result.guard.outside}/${result.guard.total} judged outside`
        : "";
      progress?.tick(result.task_id, result.ok ? 1 : 0, `${result.status}${guard}`);
    }
  };
  await Promise.all(
    Array.from({ length: intFlag("concurrency", values.concurrency, 2, 1, 64) }, worker),
  );
  progress?.finish();
  results.sort((a, b) => a.task_id.localeCompare(b.task_id));
  const broken = results.filter((r) => r.status === "broken");
  const unverified = results.filter((r) => r.status === "unverified");
  const valid = results.length - broken.length - unverified.length;
  const failed = broken.length > 0 || (unverified.length > 0 && !values["allow-unverified"]);
  if (values.json) {
    printJson({
      ok: !failed,
      tasks: results.length,
      valid,
      unverified: unverified.length,
      broken: broken.length,
      results,
    });
  } else {
    for (const r of [...broken, ...unverified]) {
      console.log(
        `${r.status.toUpperCase()} ${r.task_id}\n${r.problems.map((p) => `  - ${p}`).join("\n")}`,
      );
    }
    const weak = results.filter((r) => (r.guard?.unguarded.length ?? 0) > 0);
    for (const r of weak) {
      console.log(
        `WEAKLY GUARDED ${r.task_id}: fail_to_pass tests judged inside without a mutant canary\n${
          r.guard!.unguarded.map((t) => `  - ${t}`).join("\n")
        }`,
      );
    }
    const outside = results.reduce((n, r) => n + (r.guard?.outside ?? 0), 0);
    const f2p = results.reduce((n, r) => n + (r.guard?.total ?? 0), 0);
    console.log(
      `fail_to_pass tests judged outside the jail: ${outside}/${f2p}; ${weak.length} tasks weakly guarded`,
    );
    const slowest = results.reduce((m, r) => Math.max(m, r.test_ms ?? 0), 0);
    console.log(
      `${valid}/${results.length} tasks valid, ${unverified.length} unverified, ${broken.length} broken; slowest hidden test run ${slowest} ms`,
    );
  }
  return failed ? 1 : 0;
}
