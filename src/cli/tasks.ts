/** `tasks`: list the tasks with language, difficulty, kind and turn limit. */
import { loadTasks } from "../task/load.ts";
import { env, listFlag, parseFlags, printJson } from "./_args.ts";
import { defaultTasksDir } from "./_paths.ts";

const HELP = `patchgym tasks: list the tasks

Usage: patchgym tasks [--tasks-dir DIR] [--tasks ID,ID] [--json]
`;

/** Run the `tasks` command. */
export function tasksCommand(args: string[]): Promise<number> {
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
