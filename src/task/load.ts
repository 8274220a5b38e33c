/**
 * Loading tasks from disk with precise errors: every problem at once, each naming the file, the
 * field and the fix, e.g. `tasks/sum/task.json: fail_to_pass[1]: test "x" is not defined ...`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import type { z } from "zod";
import { TaskError } from "../errors.ts";
import { discoverTestIds } from "./_test_ids.ts";
import { type Task, type TaskSpec, TaskSpecSchema } from "./spec.ts";

/** Load and validate one task folder; throws {@linkcode TaskError} listing every problem. */
export function loadTask(dir: string): Task {
  const taskDir = resolve(dir);
  const label = displayPath(join(taskDir, "task.json"));
  const specPath = join(taskDir, "task.json");
  if (!existsSync(specPath)) {
    throw new TaskError("task_not_found", [
      `${label}: file not found; a task folder needs a task.json (see README "Task format")`,
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
    throw new TaskError(
      "task_invalid",
      parsed.error.issues.map((i) => `${label}: ${formatIssue(i)}`),
    );
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
  const available = listTaskIds(root);
  const wanted = ids ?? available;
  const missing = wanted.filter((id) => !available.includes(id));
  if (missing.length > 0) {
    throw new TaskError(
      "task_not_found",
      missing.map((id) =>
        `${
          displayPath(join(root, id))
        }: no such task; run "tasks" to list the ${available.length} available`
      ),
    );
  }
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

function checkTaskFiles(task: Task): string[] {
  const { spec } = task;
  const problems: string[] = [];
  const folder = task.dir.split("/").pop();
  if (spec.id !== folder) {
    problems.push(
      `id: "${spec.id}" does not match the folder name "${folder}"; rename one of them`,
    );
  }
  const expectedLanguage = spec.runner === "deno_test" ? "typescript" : "python";
  if (spec.language !== expectedLanguage) {
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
  spec.visible_tests.forEach((path, i) => {
    const file = join(task.repoDir, path);
    if (!isFile(file)) {
      problems.push(`visible_tests[${i}]: "${path}" not found in repo/; add it or fix the path`);
      return;
    }
    for (const id of discoverTestIds(path, readFileSync(file, "utf8"), spec.runner)) {
      defined.add(id);
    }
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
    for (const id of discoverTestIds(path, readFileSync(file, "utf8"), spec.runner)) {
      defined.add(id);
    }
  });
  for (const list of ["fail_to_pass", "pass_to_pass"] as const) {
    spec[list].forEach((id, i) => {
      // pytest grades each parameter of a parametrized test: `file::test_x[a-1]` needs `test_x`.
      const base = spec.runner === "pytest" ? id.replace(/\[.*\]$/, "") : id;
      if (!defined.has(base)) {
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

function formatIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.reduce<string>(
    (acc, key) =>
      typeof key === "number" ? `${acc}[${key}]` : acc ? `${acc}.${String(key)}` : String(key),
    "",
  );
  const where = path || "(top level)";
  if (issue.code === "unrecognized_keys") {
    return `${where}: unknown field${issue.keys.length > 1 ? "s" : ""} ${
      issue.keys.map((k) => `"${k}"`).join(", ")
    }; remove ${issue.keys.length > 1 ? "them" : "it"} or check the spelling`;
  }
  if (issue.code === "invalid_type" && issue.input === undefined) {
    return `${where}: required field is missing; add it`;
  }
  if (issue.code === "invalid_value") {
    return `${where}: must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  return `${where}: ${issue.message}`;
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
