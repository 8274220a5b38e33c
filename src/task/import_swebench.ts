/**
 * SWE-bench records to patchgym tasks, in two variants.
 *
 * - Self-contained (AReno's coding dataset and similar): each record carries its repository inline
 *   (`files`), `test_commands`, the `FAIL_TO_PASS` / `PASS_TO_PASS` pytest ids and optionally the
 *   reference `patch`. The test files those ids name stay in `repo/`, where the agent sees them,
 *   and are the graded tests: they become `visible_tests` and `protected_paths`, which the grader
 *   restores pristine, so such a task has no `hidden/` tests.
 * - Real SWE-bench records, field for field as the public dataset defines them (`repo`,
 *   `instance_id`, `base_commit`, `patch`, `test_patch`, `problem_statement`, `hints_text`,
 *   `created_at`, `version`, `FAIL_TO_PASS`, `PASS_TO_PASS`, `environment_setup_commit`): the
 *   repository comes from a local clone or mirror under `reposDir` at `base_commit`, the test files
 *   `test_patch` changes become hidden tests (the agent sees their version at the base commit),
 *   and the gold `patch` is the reference solution.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { formatIssues } from "../zod_issues.ts";
import { applyFilePatches } from "../patch/apply.ts";
import { type FilePatch, parsePatch } from "../patch/parse.ts";
import { readTree } from "../workspace/tree.ts";
import { findClone, GitReadError, readCommit } from "./git.ts";
import { discoverTestIds } from "./test_ids.ts";
import { writeNewTask } from "./write.ts";
import { TASK_KINDS, type TaskSpec } from "./spec.ts";

/** SWE-bench ships the id lists as JSON-encoded strings; accept those and plain lists. */
const idList = z.preprocess(
  decodeJsonList,
  z.array(z.string().min(1), {
    error: "must be a list of pytest ids or a JSON-encoded string of one",
  }),
);

/**
 * The fields of one self-contained record that patchgym reads. Other fields (`hints_text`,
 * `created_at`, ...) are ignored.
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

/** A validated self-contained record. */
export type SwebenchRecord = z.infer<typeof SwebenchRecordSchema>;

/**
 * The fields of a real SWE-bench record that patchgym reads (the public dataset's names); the
 * others (`hints_text`, `created_at`, `version`, `environment_setup_commit`) are ignored.
 */
export const SwebenchCloneRecordSchema = z.looseObject({
  instance_id: z.string().min(1),
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, { message: 'must be "owner/name"' }),
  base_commit: z.string().regex(/^[0-9a-f]{7,64}$/i, { message: "must be a commit hash" }),
  patch: z.string().refine((p) => p.trim() !== "", { message: "must be a non-empty patch" }),
  test_patch: z.string().refine((p) => p.trim() !== "", { message: "must be a non-empty patch" }),
  problem_statement: z.string().trim().min(1),
  FAIL_TO_PASS: idList.refine((ids) => ids.length > 0, { message: "must name at least one test" }),
  PASS_TO_PASS: idList,
});

/** A validated real SWE-bench record. */
export type SwebenchCloneRecord = z.infer<typeof SwebenchCloneRecordSchema>;

/** A record converted to a task, not yet on disk. */
export interface ConvertedTask {
  instance_id: string;
  spec: TaskSpec;
  /** The starting repository: path relative to `repo/` to content. */
  files: Record<string, string | Uint8Array>;
  /** Grading-only test files by repository path (real SWE-bench records only). */
  hidden?: Record<string, Uint8Array>;
  /** The reference patch, or null. */
  patch: string | null;
}

/** The result of converting one record: the task, or every reason it cannot be one. */
export type Conversion =
  | { ok: true; task: ConvertedTask; notes: string[] }
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
  /** Why the record was refused (empty when ok). */
  problems: string[];
  /** What the import did besides the obvious, e.g. how a test command was mapped. */
  notes: string[];
}

/** Options of {@linkcode importSwebench}. */
export interface SwebenchImportOptions {
  /**
   * Folder holding a clone or mirror of each repository real SWE-bench records name, as
   * `owner__name`, `owner/name`, `name` or `name.git`; needed only for such records.
   */
  reposDir?: string;
}

/** The command prefixes accepted in `test_commands`: pytest, however it is started. */
const PYTEST_COMMAND =
  /^(?:[A-Za-z_]\w*=\S*\s+)*(?:pytest|py\.test|python(?:3(?:\.\d+)?)?\s+-m\s+pytest)(?:\s|$)/;
/** Shell syntax that would run something besides pytest. */
const SHELL_SYNTAX = /[;&|`<>\n]|\$\(/;
/** `path/test_x.py::name` or `path/test_x.py::Class::name`, optionally parametrized `[...]`. */
const PYTEST_ID = /^([^:\s]+\.py)::(?:([A-Za-z_]\w*)::)?([A-Za-z_]\w*)(\[.*\])?$/;
/** The interpreter part of a pytest command, however it is started. */
const PYTEST_LAUNCHER =
  /^(?:[A-Za-z_]\w*=\S*\s+)*(?:pytest|py\.test|python(?:3(?:\.\d+)?)?\s+-m\s+pytest)(?=\s|$)/;

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
  const notes: string[] = [];
  record.test_commands.forEach((command, i) => {
    const problem = commandProblem(command);
    if (problem) problems.push(`test_commands[${i}]: "${command}" ${problem}`);
    else {
      const mapped = mapTestCommand(command);
      if (mapped !== command.trim()) {
        notes.push(
          `test command "${command.trim()}" runs as "${mapped}" with the interpreter patchgym runs`,
        );
      }
    }
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
  return {
    ok: true,
    task: { instance_id: record.instance_id, spec, files: record.files, patch },
    notes,
  };
}

/**
 * Import every record of a JSONL text into `outDir/<id>/`: self-contained records (with `files`)
 * directly, real SWE-bench records (with `repo` and `base_commit`) from the clones under
 * `options.reposDir`. Each task is loaded back before it is moved into place, so a record that
 * fails leaves nothing behind; existing task folders are never overwritten.
 */
export async function importSwebench(
  text: string,
  outDir: string,
  options: SwebenchImportOptions = {},
): Promise<ImportOutcome[]> {
  mkdirSync(outDir, { recursive: true });
  const outcomes: ImportOutcome[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    if (lines[index].trim() === "") continue;
    outcomes.push(await importLine(lines[index], index + 1, outDir, options));
  }
  return outcomes;
}

async function importLine(
  line: string,
  lineNo: number,
  outDir: string,
  options: SwebenchImportOptions,
): Promise<ImportOutcome> {
  const failed = (instanceId: string | null, id: string | null, problems: string[]) => ({
    line: lineNo,
    instance_id: instanceId,
    id,
    ok: false,
    dir: null,
    problems,
    notes: [],
  });
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (error) {
    return failed(null, null, [`not valid JSON: ${(error as Error).message}; fix the line`]);
  }
  const isClone = typeof raw === "object" && raw !== null && !Array.isArray(raw) &&
    !("files" in raw) && "base_commit" in raw;
  const conversion = isClone
    ? await convertCloneRecord(raw, options.reposDir ?? null, outDir)
    : convertRecord(raw);
  if (!conversion.ok) return failed(conversion.instance_id, null, conversion.problems);
  const { spec, instance_id: instanceId } = conversion.task;
  const written = writeNewTask(outDir, {
    spec,
    repo: conversion.task.files,
    hidden: conversion.task.hidden,
    patch: conversion.task.patch,
  });
  if (!written.ok) return failed(instanceId, spec.id, written.problems);
  return {
    line: lineNo,
    instance_id: instanceId,
    id: spec.id,
    ok: true,
    dir: written.dir,
    problems: [],
    notes: conversion.notes,
  };
}

/**
 * Convert one real SWE-bench record using the clone of its repository under `reposDir`: the files
 * at `base_commit` are the repository, the test files `test_patch` changes that hold expected tests
 * are the hidden tests (other files it changes, such as fixtures and helpers, are hidden data), and
 * `patch` is the reference solution. `scratchDir` holds the temporary folder the test patch is
 * applied in (default: the system's temporary folder).
 */
export async function convertCloneRecord(
  raw: unknown,
  reposDir: string | null,
  scratchDir?: string,
): Promise<Conversion> {
  const instanceId = typeof raw === "object" && raw !== null &&
      typeof (raw as Record<string, unknown>).instance_id === "string"
    ? (raw as Record<string, string>).instance_id
    : null;
  const refuse = (problems: string[]): Conversion => ({
    ok: false,
    instance_id: instanceId,
    problems,
  });
  const parsed = SwebenchCloneRecordSchema.safeParse(raw);
  if (!parsed.success) return refuse(formatIssues(parsed.error, raw, { top: "(record)" }));
  const record = parsed.data;
  if (reposDir === null) {
    return refuse([
      `repo: "${record.repo}" is a real SWE-bench record, which needs a clone of its repository; pass --repos DIR with a clone as DIR/${
        record.repo.replace("/", "__")
      }`,
    ]);
  }
  const clone = findClone(reposDir, record.repo);
  if (clone === null) {
    return refuse([
      `repo: no clone of "${record.repo}" under "${reposDir}"; clone it as ${
        join(reposDir, record.repo.replace("/", "__"))
      }`,
    ]);
  }
  const testPatch = parsePatch(record.test_patch);
  if (!testPatch.ok) return refuse([`test_patch: not a patch: ${testPatch.message}`]);
  let tree;
  try {
    tree = await readCommit(clone, record.base_commit);
  } catch (error) {
    if (!(error instanceof GitReadError)) throw error;
    return refuse([`base_commit: ${error.message}`]);
  }
  const base: Record<string, Uint8Array> = {};
  for (const file of tree.files) base[file.path] = file.content;
  const patched = await applyToCopy(base, testPatch.files, scratchDir);
  if (!patched.ok) {
    return refuse([`test_patch: does not apply at the base commit: ${patched.message}`]);
  }
  const changed = patched.changed;
  const decoder = new TextDecoder();
  const sourceOf = (path: string): string | null => {
    const content = path in changed ? changed[path] : base[path];
    return content === undefined || content === null ? null : decoder.decode(content);
  };
  const problems: string[] = [];
  const lists = { FAIL_TO_PASS: [] as string[], PASS_TO_PASS: [] as string[] };
  for (const list of ["FAIL_TO_PASS", "PASS_TO_PASS"] as const) {
    record[list].forEach((given, i) => {
      const resolved = resolveTestId(given, Object.keys(changed), sourceOf);
      if (!resolved.ok) problems.push(`${list}[${i}]: test "${given}" ${resolved.problem}`);
      else if (!lists[list].includes(resolved.id)) lists[list].push(resolved.id);
    });
  }
  for (const testId of lists.PASS_TO_PASS.filter((t) => lists.FAIL_TO_PASS.includes(t))) {
    problems.push(`PASS_TO_PASS: test "${testId}" is also in FAIL_TO_PASS; keep it in one list`);
  }
  const id = taskIdFor(record.instance_id);
  if (!/^[a-z0-9]/.test(id)) {
    problems.push(
      `instance_id: "${record.instance_id}" gives task id "${id}", which must start with a letter or digit; rename the instance`,
    );
  }
  if (problems.length > 0) return refuse(problems);
  const idFiles = [...new Set([...lists.FAIL_TO_PASS, ...lists.PASS_TO_PASS].map(fileOf))];
  const hiddenTests = idFiles.filter((f) => f in changed);
  const visibleTests = idFiles.filter((f) => f in base);
  if (visibleTests.length === 0) {
    return refuse([
      `test_patch: every graded test file (${
        idFiles.map((f) => `"${f}"`).join(", ")
      }) is new in the test patch, so the agent would have no tests to run; drop the record`,
    ]);
  }
  const files: Record<string, Uint8Array> = { ...base };
  const hidden: Record<string, Uint8Array> = {};
  const support: string[] = [];
  const data: string[] = [];
  for (const [path, content] of Object.entries(changed)) {
    if (hiddenTests.includes(path)) hidden[path] = content!;
    else if (content === null) {
      support.push(path);
      delete files[path];
    } else {
      // Test data and helpers the test patch adds or changes are hidden too: in the visible
      // repository they would show a data-driven test's oracle. The base version stays visible.
      hidden[path] = content;
      data.push(path);
    }
  }
  const notes = [
    `repository "${record.repo}" at ${
      record.base_commit.slice(0, 12)
    } from ${clone} (${tree.files.length} files)`,
    `hidden tests from test_patch: ${hiddenTests.map((f) => `"${f}"`).join(", ") || "none"}`,
  ];
  if (data.length > 0) {
    notes.push(
      `test_patch data and helper files hidden (put in place at grading): ${
        data.map((f) => `"${f}"`).join(", ")
      }`,
    );
  }
  if (support.length > 0) {
    notes.push(
      `files the test_patch deletes, deleted in the repository and protected: ${
        support.map((f) => `"${f}"`).join(", ")
      }`,
    );
  }
  const size = patchSize(record.patch);
  if (tree.skipped.length > 0) {
    notes.push(
      `left out ${tree.skipped.length} symlinks or submodules (first: "${tree.skipped[0]}")`,
    );
  }
  const spec: TaskSpec = {
    id,
    title: titleFrom(record.problem_statement, record.instance_id),
    language: "python",
    // From the gold patch's size; "patchgym tasks stats RUN" replaces it with solve rates.
    difficulty: size.lines <= 4 && size.files === 1
      ? "easy"
      : size.lines <= 30 && size.files <= 2
      ? "medium"
      : "hard",
    kind: size.files > 1
      ? "multi_file"
      : size.lines <= 2
      ? "one_line_bug"
      : size.added > 2 * size.removed && size.lines > 10
      ? "feature"
      : "cross_file_bug",
    statement: record.problem_statement.trim(),
    runner: "pytest",
    visible_tests: visibleTests,
    hidden_tests: hiddenTests,
    ...(data.length > 0 ? { hidden_data: data } : {}),
    fail_to_pass: lists.FAIL_TO_PASS,
    pass_to_pass: lists.PASS_TO_PASS,
    protected_paths: [...new Set([...visibleTests, ...support, ...data])].filter((p) => p in files),
    limits: { max_turns: 50, command_timeout_s: 60 },
    solution: "solution.patch",
    provenance: {
      made_by: "import",
      made_at: new Date().toISOString(),
      upstream_repo: record.repo,
      base_commit: record.base_commit,
      statement: "upstream",
    },
  };
  return {
    ok: true,
    task: { instance_id: record.instance_id, spec, files, hidden, patch: record.patch },
    notes,
  };
}

/**
 * Apply file patches to the `base` files they touch, in a temp folder; returns the new content of
 * each changed path (null when deleted).
 */
async function applyToCopy(
  base: Record<string, Uint8Array>,
  patches: FilePatch[],
  scratchDir?: string,
): Promise<
  { ok: true; changed: Record<string, Uint8Array | null> } | { ok: false; message: string }
> {
  // In the output folder under "deno task patchgym", which may write only there.
  const dir = await Deno.makeTempDir({ prefix: ".patchgym-import-", dir: scratchDir });
  try {
    const touched = new Set(
      patches.flatMap((p) => [p.from, p.to]).filter((p): p is string => p !== null),
    );
    for (const path of touched) {
      if (!(path in base)) continue;
      mkdirSync(join(dir, path, ".."), { recursive: true });
      Deno.writeFileSync(join(dir, path), base[path]);
    }
    const result = await applyFilePatches(dir, patches);
    if (!result.ok) return { ok: false, message: result.message };
    const after = readTree(dir);
    const changed: Record<string, Uint8Array | null> = {};
    for (const path of touched) changed[path] = after.get(path) ?? null;
    return { ok: true, changed };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A record's test id as a pytest id: pytest ids as they are (parametrized ones included); a bare
 * function name (as sympy's records give them) looked up in the test files the test patch changes.
 */
function resolveTestId(
  given: string,
  patchFiles: string[],
  sourceOf: (path: string) => string | null,
): { ok: true; id: string } | { ok: false; problem: string } {
  const match = PYTEST_ID.exec(given);
  if (match) {
    const file = match[1];
    if (pathProblem(file) !== null) {
      return { ok: false, problem: `names a file outside the repository ("${file}")` };
    }
    const source = sourceOf(file);
    if (source === null) {
      return {
        ok: false,
        problem: `names "${file}", which is not in the repository or test patch`,
      };
    }
    const bare = given.replace(/\[.*\]$/, "");
    if (!discoverTestIds(file, source, "pytest").includes(bare)) {
      return { ok: false, problem: `is not defined in "${file}"; fix the id` };
    }
    return { ok: true, id: given };
  }
  if (/^test\w*$/.test(given)) {
    const files = patchFiles.filter((f) => {
      const source = f.endsWith(".py") ? sourceOf(f) : null;
      return source !== null && discoverTestIds(f, source, "pytest").includes(`${f}::${given}`);
    });
    if (files.length === 1) return { ok: true, id: `${files[0]}::${given}` };
    return {
      ok: false,
      problem: files.length === 0
        ? "is a bare test name that no test file of the test patch defines at top level"
        : `is a bare test name defined in several test files (${files.join(", ")})`,
    };
  }
  if (/^\S+ \([\w.]+\)$/.test(given)) {
    return {
      ok: false,
      problem:
        "is a Django test-runner id; patchgym runs tests with pytest or unittest, so drop the record",
    };
  }
  return {
    ok: false,
    problem:
      'is not a pytest id like "tests/test_x.py::test_name" or "tests/test_x.py::TestClass::test_name"',
  };
}

/** Files and changed lines of a patch (0 when it does not parse). */
function patchSize(text: string): { files: number; lines: number; added: number; removed: number } {
  const parsed = parsePatch(text);
  if (!parsed.ok) return { files: 0, lines: 0, added: 0, removed: 0 };
  const lines = parsed.files.flatMap((f) => f.hunks.flatMap((h) => h.lines));
  const added = lines.filter((l) => l.op === "+").length;
  const removed = lines.filter((l) => l.op === "-").length;
  return { files: parsed.files.length, lines: added + removed, added, removed };
}

function fileOf(testId: string): string {
  return testId.split("::")[0];
}

/** A pytest command with its launcher replaced by the interpreter patchgym runs. */
export function mapTestCommand(command: string): string {
  return command.trim().replace(PYTEST_LAUNCHER, "python3 -m pytest");
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
    return 'is not a pytest id like "tests/test_x.py::test_name" or "tests/test_x.py::TestClass::test_name"';
  }
  const file = match[1];
  if (pathProblem(file) !== null) return `names a file outside the repository ("${file}")`;
  if (!Object.hasOwn(files, file)) {
    return `names "${file}", which is not in files; add the test file`;
  }
  const bare = testId.replace(/\[.*\]$/, "");
  if (!discoverTestIds(file, files[file], "pytest").includes(bare)) {
    return `is not defined in "${file}"; fix the id or add the test`;
  }
  return null;
}

function titleFrom(statement: string, fallback: string): string {
  const first = statement.split("\n").map((l) => l.replace(/^#+\s*/, "").trim()).find((l) => l);
  if (!first) return fallback;
  return first.length > 100 ? `${first.slice(0, 97)}...` : first;
}
