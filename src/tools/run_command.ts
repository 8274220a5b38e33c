/** `run_command`: one allowlisted program with arguments, in the sandbox, never through a shell. */
import { z } from "zod";
import { ALLOWED_PROGRAMS, argvProblem, isAllowedProgram } from "../sandbox/programs.ts";
import { commandPythonPath } from "../env/resolve.ts";
import { formatRun } from "./_format.ts";
import { checkGrowth } from "./_growth.ts";
import { defineTool, fail } from "./types.ts";

/** Run one program from the allowlist. */
export const runCommandTool = defineTool({
  name: "run_command",
  description:
    `Run one program with arguments in the sandboxed workspace (no shell: no pipes, redirects or globs). Allowed programs: ${
      [...ALLOWED_PROGRAMS].join(", ")
    }. Shows exit code and truncated output. No network.`,
  input: z.strictObject({
    argv: z.array(z.string()).min(1).superRefine((argv, issues) => {
      // A spawn that fails for these would fail the episode as broken infrastructure.
      const problem = argvProblem(argv);
      if (problem) {
        issues.addIssue({
          code: "custom",
          message: `${problem}; write long code to a file and run that`,
        });
      }
    }).describe(
      'Program and arguments, e.g. ["python3", "-c", "print(1)"]',
    ),
  }),
  async run(input, ctx) {
    const [program] = input.argv;
    if (!isAllowedProgram(program)) {
      return fail(
        "program_not_allowed",
        `Program "${program}" is not allowed; use one of: ${[...ALLOWED_PROGRAMS].join(", ")}`,
      );
    }
    const timeout = ctx.commandTimeoutS;
    const environment = ctx.tests.environment;
    const result = await ctx.sandbox.run({
      argv: input.argv,
      cwd: ctx.workspace.dir,
      timeoutMs: timeout * 1000,
      // The episode's next command gets its jail made while the model answers.
      ahead: ctx.workspace,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
      // The task's installed packages and source roots (a Deno environment's DENO_DIR), as its
      // tests see them.
      ...(environment && !environment.error
        ? {
          readOnly: environment.mounts,
          env: {
            PYTHONPATH: commandPythonPath(environment, ctx.workspace.dir),
            ...environment.env,
          },
        }
        : {}),
    });
    const meta = { exit_code: result.exitCode };
    if (result.timedOut) {
      return checkGrowth({
        ok: false,
        code: "timeout",
        message: `Command timed out after ${timeout}s and was killed\n${formatRun(result)}`,
        meta,
      }, ctx);
    }
    return checkGrowth(
      { ok: true, output: formatRun(result), truncated: result.truncated, meta },
      ctx,
    );
  },
});
