/**
 * `mine`: bug-fixing tasks from a repository's git history. For each commit that changes code and
 * tests: the repository at its parent (the base) with the commit's test changes on top is run
 * twice, the commit itself twice; tests that fail on both base runs and pass on both fix runs are
 * `fail_to_pass`, tests that pass on all four are `pass_to_pass`, and a test whose two runs on one
 * side disagree is flaky and left out. The commit's test files and test data become the hidden
 * side; its code changes the reference patch; the workspace holds the base commit's files only (no
 * `.git`: no later commits, tags, reflogs or remotes). Each task records when it was made and from
 * which commit, and is validated before it is kept. Every candidate's outcome goes to
 * `<out>/.mine/state.json` as it happens, so a second run resumes where the first stopped.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Environment } from "../agent/environment.ts";
import {
  buildEnvironment,
  EnvBuildError,
  inspectRepository,
  needsEnvironment,
} from "../env/build.ts";
import { LOCK_FILE } from "../env/lock.ts";
import { resolveLock } from "../env/resolve.ts";
import { validateTask } from "../rollout/validate.ts";
import type { TestOutcome } from "../sandbox/junit.ts";
import { runTests, type TestEnvironment } from "../sandbox/test_runner.ts";
import { gitText, readCommit } from "../task/git.ts";
import type { TaskSpec } from "../task/spec.ts";
import { writeNewTask } from "../task/write.ts";
import { VERSION_STUB } from "../synth/repo_seed.ts";
import { type StatementEndpoint, templateStatement, writeModelStatement } from "./statement.ts";

/** How to mine. */
export interface MineOptions {
  /** Folder the tasks go to (and `.mine/` with the state and report). */
  outDir: string;
  /** The environment the tasks are validated in (its task folder is `outDir`). */
  environment: Environment;
  /** Dependency environment cache. */
  envCache: string;
  /** A `git log` revision range, e.g. `v1.0..main` (default: HEAD's first-parent history). */
  range?: string;
  /** Most commits looked at (newest first). */
  maxCommits: number;
  /** Write statements through this endpoint; without one they are template-made. */
  endpoint?: StatementEndpoint;
  /** Test timeout per run. */
  timeoutMs?: number;
  /** One line per candidate, for people. */
  onProgress?: (event: MineProgress) => void;
  /** The id prefix (default: the repository folder's name). */
  prefix?: string;
  /** Look again at commits an earlier run dropped (after the environment or patchgym changed). */
  retryDropped?: boolean;
}

/** One candidate done. */
export interface MineProgress {
  done: number;
  total: number;
  commit: string;
  outcome: "task" | "dropped" | "resumed";
  /** Whether the commit is a task (made now, or by the run this one resumes). */
  kept: boolean;
  detail: string;
}

/** What happened to one commit. */
export interface CandidateRecord {
  commit: string;
  subject: string;
  status: "task" | "dropped";
  /** Why it was dropped, or the task id. */
  reason?: string;
  task_id?: string;
  fail_to_pass?: number;
  pass_to_pass?: number;
  flaky?: number;
  /** Tests left out of the lists because the grader judged them otherwise than a plain run. */
  graded_out?: number;
  seconds: number;
}

/** The run's report (also `<out>/.mine/report.json`). */
export interface MineReport {
  repo: string;
  candidates: number;
  tasks: string[];
  /** Dropped candidates by reason (the reason's first words). */
  dropped: Record<string, number>;
  records: CandidateRecord[];
  /** Distinct fail_to_pass sets among the tasks. */
  distinct_f2p_sets: number;
  seconds_per_task: number | null;
  statements: "template" | "model";
}

interface State {
  repo: string;
  records: Record<string, CandidateRecord>;
}

/** Mine `repo` (a git clone) into tasks under `options.outDir`. */
export async function mineRepository(repo: string, options: MineOptions): Promise<MineReport> {
  const stateDir = join(options.outDir, ".mine");
  mkdirSync(stateDir, { recursive: true });
  const statePath = join(stateDir, "state.json");
  const state: State = existsSync(statePath)
    ? JSON.parse(readFileSync(statePath, "utf8"))
    : { repo, records: {} };
  const commits = await listCommits(repo, options.range, options.maxCommits);
  const prefix = slug(options.prefix ?? basename(repo.replace(/\/?\.git\/?$/, "")));
  const f2pSets = new Set<string>();
  let taskSeconds = 0;
  let done = 0;
  const locks = new Map<string, string>();
  for (const commit of commits) {
    done++;
    const previous = state.records[commit.sha];
    if (previous && !(options.retryDropped && previous.status === "dropped")) {
      options.onProgress?.({
        done,
        total: commits.length,
        commit: commit.sha,
        outcome: "resumed",
        kept: previous.status === "task",
        detail: previous.status === "task"
          ? `task ${previous.task_id}`
          : `dropped: ${previous.reason}`,
      });
      continue;
    }
    const started = performance.now();
    let record: CandidateRecord;
    try {
      record = await mineCommit(repo, commit, prefix, options, locks);
    } catch (error) {
      if (!(error instanceof EnvBuildError)) throw error;
      record = {
        commit: commit.sha,
        subject: commit.subject,
        status: "dropped",
        reason: `environment: ${error.message}`,
        seconds: 0,
      };
    }
    record.seconds = Math.round(performance.now() - started) / 1000;
    state.records[commit.sha] = record;
    writeFileSync(statePath, JSON.stringify(state, null, 1) + "\n");
    options.onProgress?.({
      done,
      total: commits.length,
      commit: commit.sha,
      outcome: record.status,
      kept: record.status === "task",
      detail: record.status === "task"
        ? `task ${record.task_id} (F2P ${record.fail_to_pass}, P2P ${record.pass_to_pass})`
        : `dropped: ${record.reason}`,
    });
  }
  const records = commits.map((c) => state.records[c.sha]).filter((r) => r !== undefined);
  const tasks = records.filter((r) => r.status === "task");
  for (const r of tasks) {
    taskSeconds += r.seconds;
    const specPath = join(options.outDir, r.task_id!, "task.json");
    if (existsSync(specPath)) {
      const spec = JSON.parse(readFileSync(specPath, "utf8"));
      f2pSets.add(JSON.stringify([...spec.fail_to_pass].sort()));
    }
  }
  const dropped: Record<string, number> = {};
  for (const r of records) {
    if (r.status !== "dropped") continue;
    const key = (r.reason ?? "").split(":")[0];
    dropped[key] = (dropped[key] ?? 0) + 1;
  }
  const report: MineReport = {
    repo,
    candidates: records.length,
    tasks: tasks.map((r) => r.task_id!),
    dropped,
    records,
    distinct_f2p_sets: f2pSets.size,
    seconds_per_task: tasks.length > 0 ? Math.round(taskSeconds / tasks.length * 10) / 10 : null,
    statements: options.endpoint ? "model" : "template",
  };
  writeFileSync(join(stateDir, "report.json"), JSON.stringify(report, null, 2) + "\n");
  return report;
}

interface Commit {
  sha: string;
  parent: string;
  subject: string;
  body: string;
  date: string;
}

/** Non-merge commits of the range (first parent), newest first. */
async function listCommits(
  repo: string,
  range: string | undefined,
  max: number,
): Promise<Commit[]> {
  const text = await gitText(repo, [
    "log",
    "--first-parent",
    "--no-merges",
    `--max-count=${max}`,
    "--format=%H%x1f%P%x1f%aI%x1f%B%x1e",
    ...(range ? [range] : ["HEAD"]),
    "--",
  ]);
  const commits: Commit[] = [];
  for (const entry of text.split("\x1e")) {
    const [sha, parents, date, message] = entry.trim().split("\x1f");
    if (!sha || !parents) continue; // the root commit has nothing to compare against
    const [subject, ...rest] = (message ?? "").trim().split("\n");
    commits.push({
      sha,
      parent: parents.split(" ")[0],
      subject: subject ?? "",
      body: rest.join("\n").trim(),
      date,
    });
  }
  return commits;
}

/** Whether a path is a test file or test data (not code the fix may change). */
export function isTestPath(path: string): boolean {
  return /(^|\/)(tests?|testing)\//.test(path) ||
    /(^|\/)(test_[^/]*\.py|[^/]*_test\.py|conftest\.py)$/.test(path);
}

/** Whether a test path is a Python test module pytest collects. */
function isTestModule(path: string): boolean {
  return /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(path);
}

async function mineCommit(
  repo: string,
  commit: Commit,
  prefix: string,
  options: MineOptions,
  locks: Map<string, string>,
): Promise<CandidateRecord> {
  const drop = (reason: string): CandidateRecord => ({
    commit: commit.sha,
    subject: commit.subject,
    status: "dropped",
    reason,
    seconds: 0,
  });
  const changes = await changedFiles(repo, commit.parent, commit.sha);
  const testChanges = changes.filter((c) => isTestPath(c.path));
  const codeChanges = changes.filter((c) => !isTestPath(c.path));
  if (!codeChanges.some((c) => c.path.endsWith(".py"))) {
    return drop("no code change: no Python file outside the tests changed");
  }
  if (!testChanges.some((c) => isTestModule(c.path) && c.status !== "D")) {
    return drop("no test change: the commit adds or changes no test module");
  }
  const [base, fixed] = await Promise.all([
    readCommit(repo, commit.parent),
    readCommit(repo, commit.sha),
  ]);
  const baseFiles = new Map(base.files.map((f) => [f.path, f.content]));
  const fixedFiles = new Map(fixed.files.map((f) => [f.path, f.content]));
  const hiddenPaths = testChanges.filter((c) => c.status !== "D").map((c) => c.path);
  const hiddenTests = hiddenPaths.filter(isTestModule);
  const hiddenData = hiddenPaths.filter((p) => !isTestModule(p));
  const work = Deno.makeTempDirSync({ dir: options.environment.workRoot, prefix: "mine-" });
  try {
    // The base with the commit's tests: what fails here and passes after the fix is fail_to_pass.
    const before = join(work, "before");
    const after = join(work, "after");
    const beforeFiles = new Map(baseFiles);
    for (const c of testChanges) {
      if (c.status === "D") beforeFiles.delete(c.path);
      else beforeFiles.set(c.path, fixedFiles.get(c.path)!);
    }
    await writeTree(before, beforeFiles);
    await writeTree(after, fixedFiles);
    // Files a build backend writes at install time (version modules): a stub, said in the report.
    const generated = new Map<string, string>();
    const environment = await candidateEnvironment(before, options, locks);
    for (const path of (await inspectRepository(before)).missing_generated) {
      generated.set(path, versionStub());
      writeFileSync(join(after, path), versionStub());
      writeFileSync(join(before, path), versionStub());
    }
    const visible = visibleTests(baseFiles, hiddenTests);
    if (visible.length === 0) return drop("no visible tests: the base commit has no test module");
    // The visible modules run too: what passes there on both sides guards against regressions.
    const files = [...new Set([...hiddenTests, ...visible.filter((p) => fixedFiles.has(p))])];
    const run = (dir: string) =>
      runTests(options.environment.sandbox, {
        runner: "pytest",
        dir,
        files,
        timeoutMs: options.timeoutMs ?? 120_000,
        scratchDir: work,
        ...(environment.test ? { environment: environment.test } : {}),
      });
    const b1 = await run(before);
    const a1 = await run(after);
    const [b2, a2] = [await run(before), await run(after)];
    if (!a1.reportFound || !a2.reportFound) {
      return drop(
        `tests do not run after the fix: ${firstLine(a1.result.stderr || a1.result.stdout)}`,
      );
    }
    const ids = new Set([...a1.tests.keys(), ...a2.tests.keys()]);
    const f2p: string[] = [];
    const p2p: string[] = [];
    let flaky = 0;
    for (const id of [...ids].sort()) {
      if (!id.includes("::")) continue;
      const beforeRuns = [b1.tests.get(id), b2.tests.get(id)];
      const afterRuns = [a1.tests.get(id), a2.tests.get(id)];
      if (beforeRuns[0] !== beforeRuns[1] || afterRuns[0] !== afterRuns[1]) {
        flaky++;
        continue;
      }
      if (afterRuns[0] !== "passed") continue;
      if (beforeRuns[0] === "passed") p2p.push(id);
      else if (failing(beforeRuns[0])) f2p.push(id);
    }
    if (f2p.length === 0) {
      return drop(
        `no fail_to_pass: no test of ${
          hiddenTests.join(", ")
        } fails before the fix and passes after${flaky ? ` (${flaky} flaky)` : ""}`,
      );
    }
    const patch = await gitText(repo, [
      "diff",
      "--no-ext-diff",
      "--no-textconv",
      "--no-color",
      "--binary",
      "--full-index",
      commit.parent,
      commit.sha,
      "--",
      ...codeChanges.map((c) => c.path),
    ]);
    const failures = new Map([...b1.failures].filter(([id]) => f2p.includes(id)));
    const statementInput = {
      subject: commit.subject,
      body: commit.body,
      failing: f2p,
      failures,
    };
    let statement = templateStatement(statementInput);
    let statementSource: "template" | "model" = "template";
    if (options.endpoint) {
      const written = await writeModelStatement(options.endpoint, statementInput);
      if (written) {
        statement = written;
        statementSource = "model";
      }
    }
    const id = `${prefix}-${commit.sha.slice(0, 10)}`;
    const changedLines = patch.split("\n").filter((l) => /^[+-](?![+-]{2} )/.test(l)).length;
    const codeFiles = codeChanges.length;
    const repoFiles: Record<string, Uint8Array | string> = Object.fromEntries(baseFiles);
    for (const [path, content] of generated) repoFiles[path] = content;
    // A visible file the commit changes is shown at its base version; the hidden one replaces it.
    const spec: TaskSpec = {
      id,
      title: commit.subject.slice(0, 120) || `Fix from ${commit.sha.slice(0, 10)}`,
      language: "python",
      difficulty: changedLines <= 4 && codeFiles === 1
        ? "easy"
        : codeFiles > 2 || changedLines > 40
        ? "hard"
        : "medium",
      kind: codeFiles > 1 ? "multi_file" : changedLines <= 2 ? "one_line_bug" : "feature",
      statement,
      runner: "pytest",
      visible_tests: visible,
      hidden_tests: hiddenTests,
      ...(hiddenData.length > 0 ? { hidden_data: hiddenData } : {}),
      fail_to_pass: f2p,
      pass_to_pass: p2p,
      protected_paths: protectedPaths(hiddenPaths, visible),
      limits: { max_turns: 40, command_timeout_s: 60 },
      solution: "solution.patch",
      ...(environment.lock ? { environment: LOCK_FILE } : {}),
      provenance: {
        made_by: "mine",
        made_at: new Date().toISOString(),
        upstream_repo: repo,
        upstream_commit: commit.sha,
        base_commit: commit.parent,
        statement: statementSource,
      },
    };
    // Hidden files whose base version equals the fixed one would show the oracle: drop them from
    // the visible side (they are unchanged, so they are not hidden either).
    for (const path of hiddenPaths) {
      if (baseFiles.has(path)) repoFiles[path] = baseFiles.get(path)!;
      else delete repoFiles[path];
    }
    const written = writeNewTask(options.outDir, {
      spec,
      repo: repoFiles,
      hidden: Object.fromEntries(hiddenPaths.map((p) => [p, fixedFiles.get(p)!])),
      patch,
      ...(environment.lock ? { extra: { [LOCK_FILE]: environment.lock } } : {}),
    });
    if (!written.ok) return drop(`task refused: ${written.problems.join("; ")}`);
    let validation = await validateTask(options.environment, id);
    let gradedOut = 0;
    if (validation.status === "broken") {
      // The grader judges some tests otherwise than a plain run (a value compared outside the
      // jail, a test's own mocks): keep the tests it judges as the plain runs did, then again.
      const kept = await keepGradedTests(options.environment, spec, patch);
      if (kept !== null) {
        gradedOut = f2p.length + p2p.length - kept.fail_to_pass.length - kept.pass_to_pass.length;
        Object.assign(spec, kept);
        writeFileSync(join(written.dir, "task.json"), JSON.stringify(spec, null, 2) + "\n");
        options.environment.forget(id);
        validation = await validateTask(options.environment, id);
      }
    }
    if (!validation.ok) {
      rmSync(written.dir, { recursive: true, force: true });
      return drop(`not valid: ${validation.problems.join("; ")}`);
    }
    return {
      commit: commit.sha,
      subject: commit.subject,
      status: "task",
      task_id: id,
      fail_to_pass: spec.fail_to_pass.length,
      pass_to_pass: spec.pass_to_pass.length,
      flaky,
      ...(gradedOut > 0 ? { graded_out: gradedOut } : {}),
      seconds: 0,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The task's lists cut to the tests the grader judges as the plain runs did (fail_to_pass: fails
 * unchanged, passes with the patch; pass_to_pass: passes on both), or null when that leaves no
 * fail_to_pass test or changes nothing.
 */
async function keepGradedTests(
  environment: Environment,
  spec: TaskSpec,
  patch: string,
): Promise<{ fail_to_pass: string[]; pass_to_pass: string[] } | null> {
  const task = environment.task(spec.id);
  const before = await environment.grade(task, "");
  const after = await environment.grade(task, patch);
  if (!after.patch_applied) return null;
  const outcome = (grade: typeof before, id: string) =>
    grade.fail_to_pass.tests[id] ?? grade.pass_to_pass.tests[id];
  const f2p = spec.fail_to_pass.filter((id) =>
    outcome(before, id) !== "passed" && outcome(after, id) === "passed"
  );
  const p2p = spec.pass_to_pass.filter((id) =>
    outcome(before, id) === "passed" && outcome(after, id) === "passed"
  );
  if (f2p.length === 0) return null;
  if (f2p.length === spec.fail_to_pass.length && p2p.length === spec.pass_to_pass.length) {
    return null;
  }
  return { fail_to_pass: f2p, pass_to_pass: p2p };
}

/** The candidate's environment: built once per set of declared requirements (cache by lock). */
async function candidateEnvironment(
  dir: string,
  options: MineOptions,
  locks: Map<string, string>,
): Promise<{ lock: string | null; test: TestEnvironment | null }> {
  const project = await inspectRepository(dir);
  if (!needsEnvironment(project)) return { lock: null, test: null };
  const key = JSON.stringify([project.requirements, project.source_roots, project.addopts]);
  const lockPath = join(dir, "..", "env.lock");
  const known = locks.get(key);
  if (known) writeFileSync(lockPath, known);
  await buildEnvironment(dir, { cacheRoot: options.envCache, lockPath });
  const text = readFileSync(lockPath, "utf8");
  locks.set(key, text);
  const resolved = resolveLock(lockPath, options.envCache);
  if (resolved.error) throw new EnvBuildError(resolved.error);
  return { lock: text, test: resolved };
}

/** A commit's changed paths with their status (A, M, D; renames as D + A). */
async function changedFiles(
  repo: string,
  parent: string,
  sha: string,
): Promise<{ status: string; path: string }[]> {
  const text = await gitText(repo, [
    "diff",
    "--no-ext-diff",
    "--no-textconv",
    "--no-renames",
    "--name-status",
    "-z",
    parent,
    sha,
    "--",
  ]);
  const parts = text.split("\0").filter((p) => p !== "");
  const out: { status: string; path: string }[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    out.push({ status: parts[i][0], path: parts[i + 1] });
  }
  return out;
}

/** Write every file of a tree under `dir`. */
async function writeTree(dir: string, files: Map<string, Uint8Array>): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const [path, content] of files) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    await Deno.writeFile(full, content);
  }
}

/** Test modules of the base: the changed ones that exist there, else the others beside them. */
function visibleTests(base: Map<string, Uint8Array>, hidden: string[]): string[] {
  const existing = hidden.filter((p) => base.has(p));
  if (existing.length > 0) return existing;
  const folders = new Set(hidden.map((p) => dirname(p)));
  const beside = [...base.keys()].filter((p) => isTestModule(p) && folders.has(dirname(p)));
  if (beside.length > 0) return beside.sort().slice(0, 5);
  return [...base.keys()].filter(isTestModule).sort().slice(0, 5);
}

/** The test folders (or files) the agent must not edit. */
function protectedPaths(hidden: string[], visible: string[]): string[] {
  const out = new Set<string>();
  for (const path of [...hidden, ...visible]) {
    const top = /^(.*?(?:^|\/)(?:tests?|testing)\/)/.exec(path)?.[1];
    out.add(top ?? path);
  }
  return [...out].sort();
}

function failing(outcome: TestOutcome | undefined): boolean {
  return outcome === undefined || outcome === "failed" || outcome === "error";
}

function versionStub(): string {
  return VERSION_STUB;
}

function firstLine(text: string): string {
  return text.trim().split("\n").slice(-1)[0]?.slice(0, 300) ?? "";
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "repo";
}
