/** `run_tests`: the task's visible tests in the sandbox, with counts from the runner's report. */
import { z } from "zod";
import { checkSelector, runTests, testRunPlaces } from "../sandbox/test_runner.ts";
import { WorkspaceFull } from "../errors.ts";
import { defineTool, fail } from "./types.ts";
import { formatRun } from "./_format.ts";
import { checkGrowth } from "./_growth.ts";

/** Run the visible tests, or a selection of them. */
export const runTestsTool = defineTool({
  name: "run_tests",
  description:
    "Run the project's visible tests in the sandbox and show the exit code, pass/fail counts and the (possibly truncated) output. Optionally select one test file or one test id like 'tests/test_x.py::Class::test_y'.",
  input: z.strictObject({
    selector: z.string().optional().describe(
      "A visible test file, or a test id 'file::Class::name' / 'file::name'; default all visible tests",
    ),
  }),
  async run(input, ctx) {
    const { tests } = ctx;
    if (input.selector !== undefined) {
      const problem = checkSelector(tests.files, input.selector);
      if (problem) return fail("invalid_input", problem);
    }
    const { workspace } = ctx;
    let run;
    try {
      run = await runTests(ctx.sandbox, {
        runner: tests.runner,
        dir: workspace.dir,
        ...testRunPlaces(workspace),
        files: tests.files,
        selector: input.selector,
        timeoutMs: ctx.commandTimeoutS * 1000,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        ...(tests.environment ? { environment: tests.environment } : {}),
      });
    } catch (error) {
      // The agent's code filled the workspace: the model is told, as when a command fills it.
      if (!(error instanceof WorkspaceFull)) throw error;
      return checkGrowth(
        fail("workspace_too_large", `${error.message}; delete files and run the tests again`),
        ctx,
      );
    }
    const { passed, failed, skipped } = run.counts;
    const summary = run.reportFound
      ? `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`
      : "no test report was written: the run crashed or was killed before the runner finished";
    const meta = { exit_code: run.result.exitCode, passed, failed, skipped };
    const output = `$ ${run.display}\n${summary}\n${formatRun(run.result)}`;
    if (run.result.timedOut) {
      return checkGrowth({
        ok: false,
        code: "timeout",
        message:
          `Tests timed out after ${ctx.commandTimeoutS}s and were killed; look for an infinite loop or a blocking call\n${output}`,
        meta,
      }, ctx);
    }
    return checkGrowth({ ok: true, output, truncated: run.result.truncated, meta }, ctx);
  },
});
