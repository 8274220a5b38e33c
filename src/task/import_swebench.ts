/**
 * SWE-bench-style records to patchgym tasks. Each JSONL record carries its repository inline
 * (`files`), the `FAIL_TO_PASS` / `PASS_TO_PASS` pytest ids and optionally the reference patch.
 * The test files those ids name stay in `repo/`, where the agent sees them, and are the graded
 * tests: they become `visible_tests` and `protected_paths`, which the grader restores pristine,
 * so an imported task has no `hidden/` tests.
 */
import { formatIssues } from "../zod_issues.ts";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { TaskError } from "../errors.ts";
import { discoverTestIds } from "./_test_ids.ts";
import { displayPath, loadTask } from "./load.ts";
import { TASK_KINDS, type TaskSpec } from "./spec.ts";

/** SWE-bench ships the id lists as JSON-encoded strings; accept those and plain lists. */
const idList = z.preprocess(
  decodeJsonList,
  z.array(z.string().min(1), {
    error: "must be a list of pytest ids or a JSON-encoded string of one",
  }),
);

/**
 * The fields of one record that patchgym reads. Other SWE-bench fields (`repo`, `base_commit`,
 * `hints_text`, ...) are ignored.
 */
export const SwebenchRecordSchema = z.looseObject({
  instance_id: z.string().min(1),
  problem_statement: z.string().trim().min(1),
  FAIL_TO_PASS: idList.refine((ids) => ids.length > 0, { message: "must name at least one test" }),
  PASS_TO_PASS: idList,
  files: z.record(z.string(), z.string(), {
    error: "must be an object mapping repository paths to file contents",
  }).refine((files) => Object.keys(files).length > 0, { message: "must hold at least one file" }),
  test_commands: z.array(z.string().min(1)).min(1),
  max_turns: z.number().int().min(1).max(500).optional(),
  difficulty: z.enum(["easy", "medium", "hard"]).default("medium"),
  kind: z.enum(TASK_KINDS).default("feature"),
  patch: z.string().nullish(),
  title: z.string().trim().min(1).optional(),
});

/** A validated record. */
export type SwebenchRecord = z.infer<typeof SwebenchRecordSchema>;

/** A record converted to a task, not yet on disk. */
export interface ConvertedTask {
  instance_id: string;
  spec: TaskSpec;
  /** The starting repository: path relative to `repo/` to content. */
  files: Record<string, string>;
  /** The reference patch, or null. */
  patch: string | null;
}

/** The result of converting one record: the task, or every reason it cannot be one. */
export type Conversion =
  | { ok: true; task: ConvertedTask }
  | { ok: false; instance_id: string | null; problems: string[] };

/** What happened to one line of the input. */
export interface ImportOutcome {
  /** 1-based line number in the JSONL file. */
  line: number;
  instance_id: string | null;
  /** The task id, once the record got that far. */
  id: string | null;
  ok: boolean;
  /** The task folder written, when ok. */
  dir: string | null;
  problems: string[];
}

/** The command prefixes accepted in `test_commands`: pytest, however it is started. */
const PYTEST_COMMAND =
  /^(?:[A-Za-z_]\w*=\S*\s+)*(?:pytest|py\.test|python(?:3(?:\.\d+)?)?\s+-m\s+pytest)(?:\s|$)/;
/** Shell syntax that would run something besides pytest. */
const SHELL_SYNTAX = /[;&|`<>\n]|\$\(/;
/** `path/test_x.py::name` or `path/test_x.py::Class::name`, no parametrization. */
const PYTEST_ID = /^([^:\s]+\.py)::(?:([A-Za-z_]\w*)::)?([A-Za-z_]\w*)$/;

/** The patchgym task id for an instance id: lowercased, other characters mapped to '-'. */
export function taskIdFor(instanceId: string): string {
  return instanceId.toLowerCase().replace(/[^a-z0-9_-]/g, "-");
}

/** Convert one parsed JSON record; pure, it lists every problem instead of throwing. */
export function convertRecord(raw: unknown): Conversion {
  const instanceId = typeof raw === "object" && raw !== null &&
      typeof (raw as Record<string, unknown>).instance_id === "string"
    ? (raw as Record<string, string>).instance_id
    : null;
  const parsed = SwebenchRecordSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      instance_id: instanceId,
      problems: formatIssues(parsed.error, raw, { top: "(record)" }),
    };
  }
  const record = parsed.data;
  const problems: string[] = [];
  const id = taskIdFor(record.instance_id);
  if (!/^[a-z0-9]/.test(id)) {
    problems.push(
      `instance_id: "${record.instance_id}" gives task id "${id}", which must start with a letter or digit; rename the instance`,
    );
  }
  const paths = Object.keys(record.files);
  for (const path of paths) {
    const problem = pathProblem(path);
    if (problem) problems.push(`files: path "${path}" ${problem}`);
    else if (paths.some((other) => other.startsWith(`${path}/`))) {
      problems.push(`files: path "${path}" is both a file and a folder; keep one`);
    }
  }
  record.test_commands.forEach((command, i) => {
    const problem = commandProblem(command);
    if (problem) problems.push(`test_commands[${i}]: "${command}" ${problem}`);
  });
  const testFiles: string[] = [];
  const lists = { FAIL_TO_PASS: [] as string[], PASS_TO_PASS: [] as string[] };
  for (const list of ["FAIL_TO_PASS", "PASS_TO_PASS"] as const) {
    record[list].forEach((testId, i) => {
      const problem = testIdProblem(testId, record.files);
      if (problem) {
        problems.push(`${list}[${i}]: test "${testId}" ${problem}`);
        return;
      }
      if (!lists[list].includes(testId)) lists[list].push(testId);
      const file = testId.split("::")[0];
      if (!testFiles.includes(file)) testFiles.push(file);
    });
  }
  for (const testId of lists.PASS_TO_PASS.filter((t) => lists.FAIL_TO_PASS.includes(t))) {
    problems.push(`PASS_TO_PASS: test "${testId}" is also in FAIL_TO_PASS; keep it in one list`);
  }
  if (problems.length > 0) return { ok: false, instance_id: record.instance_id, problems };
  const patch = record.patch?.trim() ? record.patch : null;
  const spec: TaskSpec = {
    id,
    title: record.title ?? titleFrom(record.problem_statement, record.instance_id),
    language: "python",
    difficulty: record.difficulty,
    kind: record.kind,
    statement: record.problem_statement.trim(),
    runner: "pytest",
    visible_tests: testFiles,
    hidden_tests: [],
    fail_to_pass: lists.FAIL_TO_PASS,
    pass_to_pass: lists.PASS_TO_PASS,
    protected_paths: testFiles,
    limits: { max_turns: record.max_turns ?? 30, command_timeout_s: 20 },
    solution: patch === null ? null : "solution.patch",
  };
  return { ok: true, task: { instance_id: record.instance_id, spec, files: record.files, patch } };
}

/**
 * Import every record of a JSONL text into `outDir/<id>/`. Each task is written to a staging
 * folder, loaded back with {@linkcode loadTask} and only then moved into place, so a record that
 * fails leaves nothing behind. Existing task folders are never overwritten.
 */
export function importSwebench(text: string, outDir: string): ImportOutcome[] {
  mkdirSync(outDir, { recursive: true });
  const outcomes: ImportOutcome[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    outcomes.push(importLine(line, index + 1, outDir));
  });
  return outcomes;
}

function importLine(line: string, lineNo: number, outDir: string): ImportOutcome {
  const failed = (instanceId: string | null, id: string | null, problems: string[]) => ({
    line: lineNo,
    instance_id: instanceId,
    id,
    ok: false,
    dir: null,
    problems,
  });
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (error) {
    return failed(null, null, [`not valid JSON: ${(error as Error).message}; fix the line`]);
  }
  const conversion = convertRecord(raw);
  if (!conversion.ok) return failed(conversion.instance_id, null, conversion.problems);
  const { spec, instance_id: instanceId } = conversion.task;
  const target = join(outDir, spec.id);
  if (existsSync(target)) {
    return failed(instanceId, spec.id, [
      `task folder "${
        displayPath(target)
      }" already exists and is not overwritten; remove it or import into another --out`,
    ]);
  }
  const staging = mkdtempSync(join(outDir, ".import-"));
  try {
    const dir = join(staging, spec.id);
    writeTask(dir, conversion.task);
    try {
      loadTask(dir);
    } catch (error) {
      if (!(error instanceof TaskError)) throw error;
      // The staging path in each problem means nothing to the reader; keep the field and reason.
      return failed(
        instanceId,
        spec.id,
        error.problems.map((p) => p.replace(/^.*?task\.json: /, "")),
      );
    }
    renameSync(dir, target);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return {
    line: lineNo,
    instance_id: instanceId,
    id: spec.id,
    ok: true,
    dir: target,
    problems: [],
  };
}

function writeTask(dir: string, task: ConvertedTask): void {
  const write = (path: string, content: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  };
  for (const [path, content] of Object.entries(task.files)) write(join(dir, "repo", path), content);
  if (task.patch !== null) write(join(dir, "solution.patch"), task.patch);
  write(join(dir, "task.json"), `${JSON.stringify(task.spec, null, 2)}\n`);
}

function decodeJsonList(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function pathProblem(path: string): string | null {
  if (path.startsWith("/")) return "is absolute; use a path relative to the repository root";
  if (path.includes("\\")) return 'contains "\\"; use "/" as the separator';
  const parts = path.split("/");
  if (parts.includes("..")) return 'escapes the repository with ".."; use a path inside it';
  if (parts.some((p) => p === "" || p === ".")) return 'has an empty or "." segment; normalize it';
  return null;
}

function commandProblem(command: string): string | null {
  const trimmed = command.trim();
  if (SHELL_SYNTAX.test(trimmed)) {
    return "uses shell syntax (;, &&, |, redirection or substitution); give one plain pytest command";
  }
  if (!PYTEST_COMMAND.test(trimmed)) {
    return 'is not a pytest command; patchgym grades with pytest, so use "pytest ..." or "python -m pytest ..."';
  }
  return null;
}

function testIdProblem(testId: string, files: Record<string, string>): string | null {
  const match = PYTEST_ID.exec(testId);
  if (!match) {
    return /\[.*\]$/.test(testId)
      ? "is parametrized, which patchgym cannot grade per parameter; drop the record or name the whole function"
      : 'is not a pytest id like "tests/test_x.py::test_name" or "tests/test_x.py::TestClass::test_name"';
  }
  const file = match[1];
  if (pathProblem(file) !== null) return `names a file outside the repository ("${file}")`;
  if (!Object.hasOwn(files, file)) {
    return `names "${file}", which is not in files; add the test file`;
  }
  if (!discoverTestIds(file, files[file], "pytest").includes(testId)) {
    return `is not defined in "${file}"; fix the id or add the test`;
  }
  return null;
}

function titleFrom(statement: string, fallback: string): string {
  const first = statement.split("\n").map((l) => l.replace(/^#+\s*/, "").trim()).find((l) => l);
  if (!first) return fallback;
  return first.length > 100 ? `${first.slice(0, 97)}...` : first;
}
