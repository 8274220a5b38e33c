/**
 * The task format: `tasks/<id>/task.json` plus `repo/` (what the agent starts from), `hidden/`
 * (grading-only test files, at their paths relative to the repository root) and an optional
 * reference patch. Hidden tests and the reference patch never enter the agent's workspace.
 */
import { z } from "zod";

/** Test runners a task may use; a closed allowlist. */
export const RUNNERS = ["unittest", "pytest", "deno_test", "node_test", "jest"] as const;
/** One of {@linkcode RUNNERS}. */
export type RunnerName = (typeof RUNNERS)[number];

/** Languages a task may be written in. */
export const LANGUAGES = ["python", "typescript", "javascript"] as const;

/** The language whose tests `runner` runs: one language per runner. */
export function runnerLanguage(runner: RunnerName): (typeof LANGUAGES)[number] {
  switch (runner) {
    case "unittest":
    case "pytest":
      return "python";
    case "deno_test":
      return "typescript";
    case "node_test":
    case "jest":
      return "javascript";
  }
}

/** Whether `runner` runs Python tests (through patchgym's Python reporter). */
export function isPythonRunner(runner: RunnerName): boolean {
  return runnerLanguage(runner) === "python";
}

/** Kinds of task in the dataset, so a run can be sliced by what it exercises. */
export const TASK_KINDS = [
  "one_line_bug",
  "cross_file_bug",
  "multi_file",
  "feature",
  "refactor",
  "read_test_output",
] as const;

const relativePath = z.string().min(1).refine(
  (p) => !p.startsWith("/") && !p.split("/").includes("..") && !p.includes("\\"),
  { message: 'must be a relative path inside the repository without ".."' },
);

/** Stable test id: `<file>::<name>` or `<file>::<Class>::<name>` (pytest style for every runner). */
const testId = z.string().regex(/^[^:\s][^:]*::\S.*$/, {
  message: 'must look like "path/to/test_file.py::Class::test_name" or "file_test.ts::name"',
});

/** Schema of `task.json`. Unknown fields are errors. */
export const TaskSpecSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, {
    message: "must be lowercase letters, digits, '-' or '_' and match the folder name",
  }).describe("Task id; equals the folder name"),
  title: z.string().min(1).describe("One-line title"),
  language: z.enum(LANGUAGES),
  difficulty: z.enum(["easy", "medium", "hard"]),
  kind: z.enum(TASK_KINDS),
  statement: z.string().min(1).describe("What the agent is asked to do, as a developer writes it"),
  runner: z.enum(RUNNERS).describe("Test runner used for visible and hidden tests"),
  visible_tests: z.array(relativePath).min(1)
    .describe("Test files in repo/ the agent's run_tests runs (also graded, restored pristine)"),
  hidden_tests: z.array(relativePath).default([])
    .describe("Test files under hidden/ by repository path; empty when visible ones are graded"),
  hidden_data: z.array(relativePath).optional().describe(
    "Files under hidden/ put in place at grading but not run (test data a test patch added or changed)",
  ),
  fail_to_pass: z.array(testId).min(1).describe(
    "Tests that fail before the fix and must pass after",
  ),
  pass_to_pass: z.array(testId).describe("Tests that pass before the fix and must keep passing"),
  protected_paths: z.array(relativePath).default([])
    .describe("Paths (files or folder prefixes ending in '/') the agent must not edit"),
  limits: z.strictObject({
    max_turns: z.number().int().min(1).max(500).default(30),
    command_timeout_s: z.number().positive().max(600).default(20),
  }).default({ max_turns: 30, command_timeout_s: 20 }),
  solution: relativePath.nullable().default("solution.patch")
    .describe("Reference patch relative to the task folder, or null when there is none"),
  environment: relativePath.nullable().optional().describe(
    'Dependency lock written by "patchgym env build" (e.g. "env.lock"), relative to the task folder; null: the standard library and pytest only',
  ),
  provenance: z.strictObject({
    made_by: z.enum(["curated", "synth", "mine", "import"]).describe("What made the task"),
    made_at: z.string().describe("When it was made (ISO 8601), for decontamination"),
    upstream_repo: z.string().optional().describe("The repository it came from"),
    upstream_commit: z.string().optional().describe("The commit whose fix the task asks for"),
    base_commit: z.string().optional().describe("The commit the starting repository is at"),
    statement: z.enum(["upstream", "template", "model"]).optional()
      .describe("Who wrote the statement: the project, a template, or a model"),
  }).optional().describe("Where the task came from"),
});

/** A validated `task.json`. */
export type TaskSpec = z.infer<typeof TaskSpecSchema>;

/** A loaded task: its spec plus where its parts live on disk (absolute paths). */
export interface Task {
  spec: TaskSpec;
  /** The task folder, `tasks/<id>`. */
  dir: string;
  /** The starting repository, `tasks/<id>/repo`. */
  repoDir: string;
  /** Grading-only tests, `tasks/<id>/hidden`. */
  hiddenDir: string;
  /** Absolute path of the reference patch, or null. */
  solutionPath: string | null;
}

/**
 * Files that configure a runner; always restored from the pristine task at grading. pytest 7+
 * also reads `.pytest.ini`, and pytest 9+ `pytest.toml` and `.pytest.toml` (a `.pytest.ini` with
 * `addopts = -p <module>` once loaded a plugin that reported every test as passed).
 */
export const TEST_CONFIG_FILES = [
  "conftest.py",
  "pytest.ini",
  ".pytest.ini",
  "pytest.toml",
  ".pytest.toml",
  "tox.ini",
  "setup.cfg",
  "pyproject.toml",
  "sitecustomize.py",
  "usercustomize.py",
  "deno.json",
  "deno.jsonc",
  "package.json",
] as const;
