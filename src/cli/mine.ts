/** `mine`: tasks from a repository's git history (see `src/mine/mine.ts`). */
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../errors.ts";
import { defaultCacheRoot } from "../env/build.ts";
import { mineRepository } from "../mine/mine.ts";
import { env, intFlag, parseFlags, printJson } from "./_args.ts";
import { ENVIRONMENT_FLAGS, openEnvironment, WORK_DIR_DEFAULT } from "./_environment.ts";
import { Progress } from "./_progress.ts";

const HELP = `patchgym mine: bug-fixing tasks from a repository's git history

For each commit that changes code and test modules (newest first): the repository at the
commit's parent with the commit's tests, and the commit itself, are each tested twice in the
sandbox, with the dependency environment built from the repository's own declarations (see
"patchgym env"). The test runner comes from the repository at each commit: deno.json or
deno.jsonc is a Deno project (deno test, npm: imports from a Deno environment); package.json whose
scripts.test runs "node --test" or jest 29 (or that depends on jest) is a Node project (npm
environment from package-lock.json); anything else is Python (pytest). A Node project that tests
with vitest, mocha or another runner patchgym cannot run has its commits dropped with the reason. fail_to_pass: tests that fail before the fix and pass after; pass_to_pass: tests
that pass on both sides; a test whose two runs disagree is flaky and left out. The commit's test
files and test data are hidden; its code changes are the reference patch; the starting repository
is the parent commit's files only (no .git). Every task is validated before it is kept, and
records the upstream commit and when it was made. Progress is saved in OUT/.mine/state.json: run
the same command again to resume. OUT/.mine/report.json says why each candidate was dropped.

Usage: patchgym mine REPO --out DIR [flags]

  --out DIR            folder for the tasks (required)
  --range RANGE        git revision range, e.g. v1.2..main (default: HEAD's history)
  --max-commits N      commits looked at, newest first (default 100)
  --prefix NAME        task id prefix (default: the repository folder's name)
  --retry-dropped      look again at the commits an earlier run dropped (after building the
                       environment again or updating patchgym); kept tasks stay as they are
  --base-url URL       write statements with this OpenAI-compatible endpoint (and --model);
                       without one, statements are template-made from the commit message and
                       the failing tests (the report and each task's provenance say which)
  --model NAME         the endpoint's model
  --env-cache DIR      dependency environment cache (default ~/.cache/patchgym/env)
  --work-dir DIR       scratch root (${WORK_DIR_DEFAULT})
  --isolation MODE     auto | bwrap | none
  --json               print the report as JSON
`;

/** Run the `mine` command. */
export async function mineCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags("mine", args, {
    out: { type: "string" },
    range: { type: "string" },
    "max-commits": { type: "string" },
    prefix: { type: "string" },
    "retry-dropped": { type: "boolean" },
    "base-url": { type: "string" },
    model: { type: "string" },
    ...ENVIRONMENT_FLAGS,
    json: { type: "boolean" },
  }, { positionals: true });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new UsageError('mine: name one repository: "patchgym mine REPO --out DIR"');
  }
  if (!values.out) {
    throw new UsageError("mine: --out DIR is required; name the folder to write tasks into");
  }
  const out = resolve(values.out);
  mkdirSync(out, { recursive: true });
  const envCache = resolve(values["env-cache"] ?? defaultCacheRoot());
  const environment = await openEnvironment({ ...values, "tasks-dir": out, "env-cache": envCache });
  const baseUrl = values["base-url"] ?? env("PATCHGYM_BASE_URL") ?? env("OPENAI_BASE_URL");
  const model = values.model ?? env("PATCHGYM_MODEL") ?? env("OPENAI_MODEL");
  if (values["base-url"] && !model) throw new UsageError("mine: --base-url needs --model");
  const apiKey = env("PATCHGYM_API_KEY") ?? env("OPENAI_API_KEY");
  const progress = values.json ? null : new Progress(0, 0, 0, { kept: "tasks" });
  const report = await mineRepository(resolve(positionals[0]), {
    outDir: out,
    environment,
    envCache,
    range: values.range,
    maxCommits: intFlag("max-commits", values["max-commits"], 100, 1, 1_000_000),
    prefix: values.prefix,
    retryDropped: values["retry-dropped"] ?? false,
    ...(baseUrl && model ? { endpoint: { baseUrl, model, ...(apiKey ? { apiKey } : {}) } } : {}),
    onProgress: (event) => {
      progress?.setTotal(event.total);
      progress?.tick(event.commit.slice(0, 10), event.kept ? 1 : 0, event.detail);
    },
  });
  progress?.finish();
  if (values.json) printJson(report);
  else {
    const drops = Object.entries(report.dropped).map(([r, n]) => `${r} ${n}`).join(", ");
    console.log(`Test runner: ${report.runner}`);
    console.log(
      `${report.tasks.length} tasks from ${report.candidates} commits (${report.distinct_f2p_sets} distinct fail_to_pass sets, ${
        report.seconds_per_task ?? "-"
      } s per task; statements: ${report.statements}-made); dropped: ${drops || "none"}`,
    );
    console.log(`Why each commit was dropped: ${out}/.mine/report.json`);
  }
  return report.tasks.length > 0 ? 0 : 1;
}
