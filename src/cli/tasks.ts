/** `tasks`: list the tasks with language, difficulty, kind and turn limit. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UsageError } from "../errors.ts";
import { loadTasks } from "../task/load.ts";
import { EASY_AT, HARD_BELOW, taskDifficulty } from "../trajectory/difficulty.ts";
import { env, intFlag, listFlag, parseFlags, printJson } from "./_args.ts";
import { readRunFolder } from "./_run_folder.ts";
import { defaultTasksDir } from "./_paths.ts";

const HELP = `patchgym tasks: list the tasks

Usage: patchgym tasks [--tasks-dir DIR] [--tasks ID,ID] [--json]
       patchgym tasks stats RUN [--k N] [--write TASKS_DIR] [--json]

"stats" labels each task of a rollout by its solve rate, not by its kind: pass@1 is the share of
graded samples that resolved it (pass@k the unbiased estimate), easy at ${EASY_AT} or more, hard
below ${HARD_BELOW}, unsolved when no sample resolved it. Samples that ended in policy_error or
environment_error are left out. --write sets "difficulty" in each task.json under TASKS_DIR
(unsolved as hard). Run the rollout with --samples 4 or more for a useful estimate.
`;

/** Run the `tasks` command. */
export function tasksCommand(args: string[]): Promise<number> {
  if (args[0] === "stats") return Promise.resolve(statsCommand(args.slice(1)));
  const { values } = parseFlags("tasks", args, {
    "tasks-dir": { type: "string" },
    tasks: { type: "string" },
    json: { type: "boolean" },
  });
  if (values.help) {
    console.log(HELP);
    return Promise.resolve(0);
  }
  const dir = values["tasks-dir"] ?? defaultTasksDir(env("PATCHGYM_TASKS"));
  const tasks = loadTasks(dir, listFlag(values.tasks));
  const rows = tasks.map(({ spec }) => ({
    id: spec.id,
    language: spec.language,
    difficulty: spec.difficulty,
    kind: spec.kind,
    max_turns: spec.limits.max_turns,
    title: spec.title,
  }));
  if (values.json) {
    printJson(rows);
    return Promise.resolve(0);
  }
  const header = {
    id: "id",
    language: "language",
    difficulty: "difficulty",
    kind: "kind",
    max_turns: "turns",
    title: "title",
  };
  const keys = Object.keys(header) as (keyof typeof header)[];
  const widths = keys.map((k) =>
    Math.max(header[k].length, ...rows.map((r) => String(r[k]).length))
  );
  const line = (r: Record<string, unknown>) =>
    keys.map((k, i) => String(r[k]).padEnd(widths[i])).join("  ").trimEnd();
  console.log([line(header), ...rows.map(line), "", `${rows.length} tasks in ${dir}`].join("\n"));
  return Promise.resolve(0);
}

function statsCommand(args: string[]): number {
  const { values, positionals } = parseFlags("tasks stats", args, {
    k: { type: "string" },
    write: { type: "string" },
    json: { type: "boolean" },
  }, { positionals: true });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new UsageError('tasks stats: name one run folder: "patchgym tasks stats runs/run-..."');
  }
  const k = intFlag("k", values.k, 5, 1, 10_000);
  const run = readRunFolder("tasks stats", positionals[0]);
  const rows = taskDifficulty(run.records, k);
  if (values.write) {
    for (const row of rows) {
      const path = join(values.write, row.task_id, "task.json");
      if (!existsSync(path)) continue;
      const spec = JSON.parse(readFileSync(path, "utf8"));
      spec.difficulty = row.label === "unsolved" ? "hard" : row.label;
      writeFileSync(path, JSON.stringify(spec, null, 2) + "\n");
    }
  }
  if (values.json) {
    printJson({ run: run.dir, k, tasks: rows });
    return 0;
  }
  const lines = rows.map((r) =>
    `${r.task_id.padEnd(40)} ${String(r.resolved).padStart(3)}/${
      String(r.samples).padEnd(3)
    } pass@1 ${r.pass_at_1.toFixed(2)}  pass@${r.k} ${r.pass_at_k.toFixed(2)}  ${
      r.label.padEnd(8)
    } (declared ${r.declared})`
  );
  const count = (label: string) => rows.filter((r) => r.label === label).length;
  console.log(
    [
      ...lines,
      "",
      `${rows.length} tasks: ${count("easy")} easy, ${count("medium")} medium, ${
        count("hard")
      } hard, ${count("unsolved")} unsolved${
        values.write ? `; difficulty written under ${values.write}` : ""
      }`,
    ].join("\n"),
  );
  return 0;
}
