/**
 * Loading tasks from disk with precise errors: every problem at once, each naming the file, the
 * field and the fix, e.g. `tasks/sum/task.json: fail_to_pass[1]: test "x" is not defined ...`.
 */
import { patchgymCommand } from "../hint.ts";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { z } from "zod";
import { TaskError } from "../errors.ts";
import { didYouMean } from "../suggest.ts";
import { formatIssue } from "../zod_issues.ts";
import { discoverTestIds, openTestClasses } from "./test_ids.ts";
import { runnerLanguage, type Task, type TaskSpec, TaskSpecSchema } from "./spec.ts";

/** Load and validate one task folder; throws {@linkcode TaskError} listing every problem. */
export function loadTask(dir: string): Task {
  const taskDir = resolve(dir);
  const label = displayPath(join(taskDir, "task.json"));
  const specPath = join(taskDir, "task.json");
  if (!existsSync(specPath)) {
    throw new TaskError("task_not_found", [
      `${label}: file not found; a task folder needs a task.json (see docs/tasks.md)`,
    ]);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(specPath, "utf8"));
  } catch (error) {
    throw new TaskError("task_invalid", [
      `${label}: not valid JSON: ${(error as Error).message}; fix the syntax`,
    ], { cause: error });
  }
  const parsed = TaskSpecSchema.safeParse(raw);
  if (!parsed.success) {
    // Every problem at once: the schema's, and the file checks the valid fields allow.
    const schemaProblems = parsed.error.issues.map((i) => `${label}: ${formatIssue(i, raw)}`);
    const fileProblems = checkTaskFiles(partialTask(taskDir, raw, parsed.error.issues))
      .map((p) => `${label}: ${p}`);
    throw new TaskError("task_invalid", [...schemaProblems, ...fileProblems]);
  }
  const spec = parsed.data;
  const task: Task = {
    spec,
    dir: taskDir,
    repoDir: join(taskDir, "repo"),
    hiddenDir: join(taskDir, "hidden"),
    solutionPath: spec.solution === null ? null : join(taskDir, spec.solution),
  };
  const problems = checkTaskFiles(task).map((p) => `${label}: ${p}`);
  if (problems.length > 0) throw new TaskError("task_invalid", problems);
  return task;
}

/** Load every task under `root` (each subfolder with a task.json), sorted by id. */
export function loadTasks(root: string, ids?: string[]): Task[] {
  const wanted = ids ?? listTaskIds(root);
  checkTaskIds(root, wanted);
  const problems: string[] = [];
  const tasks: Task[] = [];
  for (const id of wanted) {
    try {
      tasks.push(loadTask(join(root, id)));
    } catch (error) {
      if (!(error instanceof TaskError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) throw new TaskError("task_invalid", problems);
  return tasks;
}

/**
 * Throw a {@linkcode TaskError} naming every id in `ids` that is not a task under `root`, with the
 * closest existing id: the one treatment of a wrong task id in every command.
 */
export function checkTaskIds(root: string, ids: string[]): void {
  const available = requireTaskIds(root);
  const missing = ids.filter((id) => !available.includes(id));
  if (missing.length === 0) return;
  throw new TaskError(
    "task_not_found",
    missing.map((id) =>
      `${displayPath(join(root, id))}: no such task${didYouMean(id, available)}; run "${
        patchgymCommand("tasks")
      }" to list the ${available.length} available`
    ),
  );
}

/**
 * Ids of the task folders under `root`, sorted; a {@linkcode TaskError} that says where tasks are
 * expected when there is none (an empty folder, one task's own folder, a repository's root).
 */
export function requireTaskIds(root: string): string[] {
  const ids = listTaskIds(root);
  if (ids.length > 0) return ids;
  const where = displayPath(root);
  const hints: string[] = [];
  if (existsSync(join(root, "task.json"))) {
    const id = resolve(root).split("/").pop();
    hints.push(
      `it is one task's folder: name the folder that holds it, e.g. --tasks-dir ${
        displayPath(resolve(root, ".."))
      } --tasks ${id}`,
    );
  } else if (isDir(join(root, "tasks")) && listTaskIds(join(root, "tasks")).length > 0) {
    hints.push(`did you mean --tasks-dir ${displayPath(join(root, "tasks"))}?`);
  }
  throw new TaskError("task_not_found", [
    `${where}: no task folders found; tasks are expected as ${where}/<id>/task.json, one folder per task (docs/tasks.md)${
      hints.length ? `; ${hints.join("; ")}` : ""
    }`,
  ]);
}

/** Ids of the task folders under `root`, sorted. */
export function listTaskIds(root: string): string[] {
  if (!existsSync(root)) {
    throw new TaskError("task_not_found", [`${displayPath(root)}: tasks folder not found`]);
  }
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(root, e.name, "task.json")))
    .map((e) => e.name)
    .sort();
}

function checkTaskFiles(task: Task | PartialTask): string[] {
  const { spec } = task;
  const problems: string[] = [];
  const folder = task.dir.split("/").pop();
  if (spec.id !== undefined && spec.id !== folder) {
    problems.push(
      `id: "${spec.id}" does not match the folder name "${folder}"; rename one of them`,
    );
  }
  const expectedLanguage = spec.runner === undefined ? undefined : runnerLanguage(spec.runner);
  if (
    spec.runner !== undefined && spec.language !== undefined && spec.language !== expectedLanguage
  ) {
    problems.push(
      `runner: "${spec.runner}" cannot test a ${spec.language} task; use a ${spec.language} runner`,
    );
  }
  if (!isDir(task.repoDir)) {
    problems.push(
      `repo/: folder not found; put the starting repository in ${displayPath(task.repoDir)}`,
    );
    return problems;
  }
  const defined = new Set<string>();
  // Classes whose inherited tests come from another module: any method name under them is taken.
  const open = new Set<string>();
  const discover = (path: string, source: string, runner: TaskSpec["runner"]) => {
    for (const id of discoverTestIds(path, source, runner)) defined.add(id);
    if (runner === "pytest" || runner === "unittest") {
      for (const cls of openTestClasses(path, source)) open.add(cls);
    }
  };
  spec.visible_tests.forEach((path, i) => {
    const file = join(task.repoDir, path);
    if (!isFile(file)) {
      problems.push(`visible_tests[${i}]: "${path}" not found in repo/; add it or fix the path`);
      return;
    }
    if (spec.runner === undefined) return;
    discover(path, readFileSync(file, "utf8"), spec.runner);
  });
  spec.hidden_tests.forEach((path, i) => {
    const file = join(task.hiddenDir, path);
    if (!isFile(file)) {
      problems.push(`hidden_tests[${i}]: "${path}" not found in hidden/; add it or fix the path`);
      return;
    }
    // A repo/ file at the same path is the version the agent sees (as when a test patch changes
    // an existing test file); the hidden one replaces it at grading. The same content would leak.
    const shown = join(task.repoDir, path);
    if (existsSync(shown) && readFileSync(shown, "utf8") === readFileSync(file, "utf8")) {
      problems.push(
        `hidden_tests[${i}]: "${path}" also exists in repo/ with the same content, so the agent would see it; rename one`,
      );
    }
    if (spec.runner === undefined) return;
    discover(path, readFileSync(file, "utf8"), spec.runner);
  });
  (spec.hidden_data ?? []).forEach((path, i) => {
    if (!isFile(join(task.hiddenDir, path))) {
      problems.push(`hidden_data[${i}]: "${path}" not found in hidden/; add it or fix the path`);
    }
  });
  // Without a valid runner the defined test ids are unknown: do not guess about the lists.
  const lists = spec.runner === undefined ? [] : ["fail_to_pass", "pass_to_pass"] as const;
  for (const list of lists) {
    spec[list].forEach((id, i) => {
      // pytest grades each parameter of a parametrized test: `file::test_x[a-1]` needs `test_x`.
      const base = spec.runner === "pytest" ? id.replace(/\[.*\]$/, "") : id;
      if (!defined.has(base) && !open.has(base.slice(0, base.lastIndexOf("::")))) {
        problems.push(
          `${list}[${i}]: test "${id}" is not defined in the visible or hidden tests; fix the id or add the test`,
        );
      }
    });
  }
  const overlap = spec.fail_to_pass.filter((id) => spec.pass_to_pass.includes(id));
  for (const id of overlap) {
    problems.push(`pass_to_pass: test "${id}" is also in fail_to_pass; keep it in one list`);
  }
  if (task.solutionPath !== null && !isFile(task.solutionPath)) {
    problems.push(
      `solution: "${spec.solution}" not found in the task folder; add the reference patch or set null`,
    );
  }
  return problems;
}

/**
 * The task as far as `raw` gives valid fields: a field with a schema problem is left out of the
 * checks (an empty list, or a value that skips the check), so its problem is reported once.
 */
function partialTask(taskDir: string, raw: unknown, issues: z.core.$ZodIssue[]): PartialTask {
  const bad = new Set(issues.map((i) => String(i.path[0] ?? "")));
  const value = (key: string) =>
    typeof raw === "object" && raw !== null && !bad.has(key)
      ? (raw as Record<string, unknown>)[key]
      : undefined;
  const list = (key: string) => {
    const v = value(key);
    return Array.isArray(v) ? v as string[] : [];
  };
  const solution = value("solution");
  return {
    spec: {
      id: value("id") as string | undefined,
      language: value("language") as string | undefined,
      runner: value("runner") as TaskSpec["runner"] | undefined,
      visible_tests: list("visible_tests"),
      hidden_tests: list("hidden_tests"),
      hidden_data: list("hidden_data"),
      fail_to_pass: list("fail_to_pass"),
      pass_to_pass: list("pass_to_pass"),
      solution: solution === undefined
        ? (bad.has("solution") ? null : "solution.patch")
        : solution as string | null,
    },
    dir: taskDir,
    repoDir: join(taskDir, "repo"),
    hiddenDir: join(taskDir, "hidden"),
    solutionPath: typeof solution === "string"
      ? join(taskDir, solution)
      : solution === undefined && !bad.has("solution")
      ? join(taskDir, "solution.patch")
      : null,
  };
}

/** What {@linkcode checkTaskFiles} reads of a task; fields may be absent when they were invalid. */
interface PartialTask {
  spec: {
    id?: string;
    language?: string;
    runner?: TaskSpec["runner"];
    visible_tests: string[];
    hidden_tests: string[];
    hidden_data?: string[];
    fail_to_pass: string[];
    pass_to_pass: string[];
    solution: string | null;
  };
  dir: string;
  repoDir: string;
  hiddenDir: string;
  solutionPath: string | null;
}

/** A path shown relative to the working directory when it lies under it. */
export function displayPath(path: string): string {
  const rel = relative(Deno.cwd(), path);
  return rel && !rel.startsWith("..") ? rel : path;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Re-exported for callers that only need the type. */
export type { Task, TaskSpec };
