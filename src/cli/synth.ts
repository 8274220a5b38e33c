/** `synth`: turn repositories whose tests pass into many validated bug-fixing tasks. */
import { exitOnSignal } from "../workspace/root.ts";
import { patchgymCommand } from "../hint.ts";
import { UsageError } from "../errors.ts";
import { synthesize } from "../synth/synth.ts";
import { loadTasks } from "../task/load.ts";
import { intFlag, listFlag, parseFlags, printJson } from "./_args.ts";
import { ENVIRONMENT_FLAGS, openEnvironment, tasksDirOf } from "./_environment.ts";
import { Progress } from "./_progress.ts";

const HELP = `patchgym synth: synthesize bug-fixing tasks by injecting bugs into seed repositories

Each seed is a task folder whose repository, with its reference patch applied, passes its tests
(the bundled tasks by default; any task folder of yours, e.g. one made with "import"). Python
sources are mutated with Python's own ast module, TypeScript sources with the TypeScript parser:
operator and comparison swaps, off-by-one constants, inverted conditions, dropped statements,
swapped arguments and wrong defaults. Each mutant's tests run through the grader: mutants that no
test notices, duplicates of another program, and mutants that hang are dropped; the tests a mutant
breaks are fail_to_pass, the other passing ones pass_to_pass. A statement is written from the
failing tests, difficulty is estimated, and the inverse patch must earn the full reward before a
task is written. Pairs and triples of kept mutants give harder multi-bug tasks.

Usage: patchgym synth --out DIR [flags]

  --out DIR            folder for the new task folders (required; existing ones are kept)
  --tasks ID,ID        seed tasks (default: every task in the tasks folder)
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
  const seeds = loadTasks(tasksDirOf(values), listFlag(values.tasks));
  // Ctrl-C exits at once, through the exit hook that removes this process's workspace folder.
  exitOnSignal("SIGINT");
  const environment = await openEnvironment(values);
  const progress = values.json ? null : new Progress(0);
  let shownTotal = 0;
  const report = await synthesize(seeds, {
    sandbox: environment.sandbox,
    workRoot: environment.workRoot,
    outDir: values.out,
    perSeed: intFlag("per-seed", values["per-seed"], 40, 1, 100_000),
    multiPerSeed: intFlag("multi", values.multi, 10, 0, 100_000),
    concurrency: intFlag("concurrency", values.concurrency, 2, 1, 256),
    seed: intFlag("seed", values.seed, 0, 0, 2 ** 31),
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
      `${report.written.length} tasks written to ${values.out} from ${report.tried} mutants tried in ${
        (report.elapsed_ms / 1000).toFixed(1)
      } s (dropped: ${drops || "none"}); check them with "${
        patchgymCommand(`validate --tasks-dir ${values.out}`)
      }"`,
    );
  }
  return report.written.length > 0 ? 0 : 1;
}
