/** `synth`: turn repositories whose tests pass into many validated bug-fixing tasks. */
import { exitOnSignal } from "../workspace/root.ts";
import { patchgymCommand } from "../hint.ts";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../errors.ts";
import { defaultCacheRoot, inspectRepository } from "../env/build.ts";
import { resolveTaskEnvironment } from "../env/resolve.ts";
import { repositorySeed, VERSION_STUB } from "../synth/repo_seed.ts";
import { defaultTasksDir } from "./_paths.ts";
import { synthesize } from "../synth/synth.ts";
import { loadTasks } from "../task/load.ts";
import { env, intFlag, listFlag, parseFlags, printJson } from "./_args.ts";
import { ENVIRONMENT_FLAGS, openEnvironment, tasksDirOf } from "./_environment.ts";
import { Progress } from "./_progress.ts";

const HELP = `patchgym synth: synthesize bug-fixing tasks by injecting bugs into seed repositories

Each seed is a task folder whose repository, with its reference patch applied, passes its tests
(the bundled tasks by default; any task folder of yours, e.g. one made with "import"). Python
sources are mutated with Python's own ast module, TypeScript and JavaScript (node_test) sources
with the TypeScript parser: operator and comparison swaps, off-by-one constants, inverted
conditions, dropped statements, swapped arguments and wrong defaults. Each mutant's tests run through the grader: mutants that no
test notices, duplicates of another program, and mutants that hang are dropped; the tests a mutant
breaks are fail_to_pass, the other passing ones pass_to_pass. A statement is written from the
failing tests, difficulty is estimated, and the inverse patch must earn the full reward before a
task is written. Pairs and triples of kept mutants give harder multi-bug tasks.

A seed's reference fix is not applied (unless --apply-reference), and no task is written whose
repository holds the reference fix of a curated task (--curated, default the bundled tasks): a
policy trained on the output must not learn the curated set's solutions. Tasks from one seed
fail different tests (at most --max-per-failing-set share one fail_to_pass set), and a second
bug on a line another task already broke is dropped as a near duplicate.

Usage: patchgym synth --out DIR [flags]

  --out DIR            folder for the new task folders (required; existing ones are kept)
  --repo DIR           a repository as the seed (its test modules are the tests; its
                       environment from "patchgym env build DIR"), instead of task folders
  --tasks ID,ID        seed tasks (default: every task in the tasks folder)
  --apply-reference    mutate each seed with its reference patch applied
  --curated DIR        tasks whose reference fixes must not appear (default: the bundled tasks)
  --max-per-failing-set N  tasks per seed with the same fail_to_pass set (default 2)
  --env-cache DIR      dependency environment cache (default ~/.cache/patchgym/env)
  --base-url URL       write issue-style statements with this OpenAI-compatible endpoint
  --model NAME         (and this model); the model sees the failing tests, never the bug
  --per-seed N         single mutants tried per seed (default 40)
  --multi N            multi-mutation combinations tried per seed (default 10)
  --concurrency N      test runs at once (default 2)
  --seed N             sampling seed (default 0)
  --tasks-dir DIR      the seeds' folder (default ./tasks or PATCHGYM_TASKS)
  --json               print the report as JSON

Then "patchgym validate --tasks-dir DIR" checks every task end to end.
`;

/** Run the `synth` command. */
export async function synthCommand(args: string[]): Promise<number> {
  const { values } = parseFlags("synth", args, {
    out: { type: "string" },
    tasks: { type: "string" },
    "per-seed": { type: "string" },
    multi: { type: "string" },
    concurrency: { type: "string" },
    seed: { type: "string" },
    repo: { type: "string" },
    "apply-reference": { type: "boolean" },
    curated: { type: "string" },
    "max-per-failing-set": { type: "string" },
    "base-url": { type: "string" },
    model: { type: "string" },
    ...ENVIRONMENT_FLAGS,
    json: { type: "boolean" },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (!values.out) {
    throw new UsageError("synth: --out DIR is required; name the folder to write tasks into");
  }
  // Ctrl-C exits at once, through the exit hook that removes this process's workspace folder.
  exitOnSignal("SIGINT");
  const environment = await openEnvironment(values);
  const scratch = values.repo
    ? Deno.makeTempDirSync({ dir: environment.workRoot, prefix: "seed-" })
    : null;
  const seeds = values.repo && scratch
    ? [repositorySeed(resolve(values.repo), scratch)]
    : loadTasks(tasksDirOf(values), listFlag(values.tasks));
  // A repository whose build backend writes a version module gets a stub, and says so.
  const generated = values.repo
    ? (await inspectRepository(resolve(values.repo))).missing_generated
    : [];
  for (const path of generated) {
    console.error(`synth: "${path}" is written at install time; tasks get a stub version file`);
  }
  const curatedDir = values.curated ?? defaultTasksDir(undefined);
  // Generated tasks (synth, mine, import) in that folder are not the curated set: the fix of a
  // synthesized task is its seed's own code, which every new task from that seed holds.
  const curated = [
    ...seeds,
    ...(existsSync(curatedDir) ? loadTasks(curatedDir) : []).filter((t) =>
      (t.spec.provenance?.made_by ?? "curated") === "curated"
    ),
  ];
  const envCache = values["env-cache"] ? resolve(values["env-cache"]) : defaultCacheRoot();
  const progress = values.json ? null : new Progress(0, 0, 0, { kept: "tasks" });
  let shownTotal = 0;
  const report = await synthesize(seeds, {
    sandbox: environment.sandbox,
    workRoot: environment.workRoot,
    outDir: values.out,
    perSeed: intFlag("per-seed", values["per-seed"], 40, 1, 100_000),
    multiPerSeed: intFlag("multi", values.multi, 10, 0, 100_000),
    concurrency: intFlag("concurrency", values.concurrency, 2, 1, 256),
    seed: intFlag("seed", values.seed, 0, 0, 2 ** 31),
    applyReference: values["apply-reference"] ?? false,
    curated,
    maxPerFailingSet: intFlag("max-per-failing-set", values["max-per-failing-set"], 2, 1, 100_000),
    environmentOf: (task) => resolveTaskEnvironment(task, envCache),
    ...(generated.length > 0
      ? { seedFiles: () => Object.fromEntries(generated.map((p) => [p, VERSION_STUB])) }
      : {}),
    ...(values["base-url"] && values.model
      ? {
        endpoint: {
          baseUrl: values["base-url"],
          model: values.model,
          ...(env("PATCHGYM_API_KEY") ?? env("OPENAI_API_KEY")
            ? { apiKey: (env("PATCHGYM_API_KEY") ?? env("OPENAI_API_KEY"))! }
            : {}),
        },
      }
      : {}),
    onProgress: (event) => {
      if (!progress) return;
      if (event.total !== shownTotal) {
        shownTotal = event.total;
        progress.setTotal(event.total);
      }
      progress.tick(event.label, event.outcome === "kept" ? 1 : 0, event.outcome);
    },
  });
  progress?.finish();
  if (scratch) Deno.removeSync(scratch, { recursive: true });
  if (values.json) printJson(report);
  else {
    for (const s of report.seeds) {
      const detail = s.problem === null
        ? `${s.passing_tests} passing tests, ${s.mutants_found} mutants, ${s.tried} tried, ${s.kept} kept`
        : `skipped: ${s.problem}`;
      console.log(`${s.seed}: ${detail}`);
    }
    const drops = Object.entries(report.dropped).filter(([, n]) => n > 0)
      .map(([reason, n]) => `${reason} ${n}`).join(", ");
    console.log(
      `${report.written.length} tasks (${report.distinct_f2p_sets} distinct fail_to_pass sets) written to ${values.out} from ${report.tried} mutants tried in ${
        (report.elapsed_ms / 1000).toFixed(1)
      } s (dropped: ${drops || "none"}); check them with "${
        patchgymCommand(`validate --tasks-dir ${values.out}`)
      }"`,
    );
  }
  return report.written.length > 0 ? 0 : 1;
}
