/**
 * `mine`: bug-fixing tasks from a repository's git history. For each commit that changes code and
 * tests, in the language and test runner detected from the repository at that commit (Python with
 * pytest, Node with `node --test` or jest, Deno with `deno test`; see `stack.ts`): the repository
 * at its parent (the base) with the commit's test changes on top is run twice, the commit itself
 * twice; tests that fail on both base runs and pass on both fix runs are
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
import { EnvironmentFault } from "../errors.ts";
import { EnvBuildError, inspectRepository } from "../env/build.ts";
import { LOCK_FILE } from "../env/lock.ts";
import { resolveLock } from "../env/resolve.ts";
import { buildRepoEnvironment } from "../env/task_env.ts";
import { validateTask } from "../rollout/validate.ts";
import type { TestOutcome } from "../sandbox/junit.ts";
import { runTests, type TestEnvironment } from "../sandbox/test_runner.ts";
import { gitText, readCommit } from "../task/git.ts";
import type { TaskSpec } from "../task/spec.ts";
import { writeNewTask } from "../task/write.ts";
import { VERSION_STUB } from "../synth/repo_seed.ts";
import { type StatementEndpoint, templateStatement, writeModelStatement } from "./statement.ts";
import { detectStack, isTestPath, type Stack, STACK_FILES } from "./stack.ts";

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
  /**
   * The test runner detected at the newest commit looked at and what from, or why the repository
   * cannot be mined (each commit is detected on its own: a history may change runners).
   */
  runner: string;
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
      // A build that failed, or a runner the jail cannot start: this candidate's environment.
      if (!(error instanceof EnvBuildError) && !(error instanceof EnvironmentFault)) throw error;
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
  const newest = commits[0] ? detectStack(await stackFiles(repo, commits[0].sha)) : null;
  const report: MineReport = {
    repo,
    runner: newest === null
      ? "none: no commit to look at"
      : newest.ok
      ? `${newest.stack.runner} (from ${newest.stack.from})`
      : `none: ${newest.reason}`,
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
  const detected = detectStack(await stackFiles(repo, commit.sha));
  if (!detected.ok) return drop(detected.reason);
  const stack = detected.stack;
  const isTestModule = stack.isTestModule;
  const changes = await changedFiles(repo, commit.parent, commit.sha);
  const testChanges = changes.filter((c) => isTestPath(c.path, stack));
  const codeChanges = changes.filter((c) => !isTestPath(c.path, stack));
  if (!codeChanges.some((c) => stack.isCode(c.path))) {
    return drop(
      `no code change: no ${stack.language} file outside the tests changed (${stack.runner}, from ${stack.from})`,
    );
  }
  if (!testChanges.some((c) => isTestModule(c.path) && c.status !== "D")) {
    return drop(`no test change: the commit adds or changes no ${stack.runner} test module`);
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
    const generated = new Map<string, Uint8Array | string>();
    const environment = await candidateEnvironment(before, stack, options, locks);
    if (stack.language === "python") {
      for (const path of (await inspectRepository(before)).missing_generated) {
        generated.set(path, versionStub());
        writeFileSync(join(after, path), versionStub());
        writeFileSync(join(before, path), versionStub());
      }
    }
    // A lock the build wrote because the repository had none: the task's repository keeps it, so
    // its environment builds again from the same versions.
    for (const name of WRITTEN_LOCKS) {
      if (!baseFiles.has(name) && existsSync(join(before, name))) {
        generated.set(name, readFileSync(join(before, name)));
      }
    }
    const visible = visibleTests(baseFiles, hiddenTests, isTestModule);
    if (visible.length === 0) {
      return drop(`no visible tests: the base commit has no ${stack.runner} test module`);
    }
    // The visible modules run too: what passes there on both sides guards against regressions.
    const files = [...new Set([...hiddenTests, ...visible.filter((p) => fixedFiles.has(p))])];
    // pytest reports a module it cannot import and runs the others; node --test, jest and deno
    // test stop at the first module that fails to load (a test importing code the fix adds), so
    // each of their files gets a run of its own.
    const groups = stack.runner === "pytest" ? [files] : files.map((file) => [file]);
    const run = async (dir: string): Promise<SideRun> => {
      const side: SideRun = {
        tests: new Map(),
        failures: new Map(),
        reportFound: true,
        output: "",
      };
      for (const group of groups) {
        const one = await runTests(options.environment.sandbox, {
          runner: stack.runner,
          dir,
          files: group,
          timeoutMs: options.timeoutMs ?? 120_000,
          scratchDir: work,
          ...(environment.test ? { environment: environment.test } : {}),
        });
        for (const [id, outcome] of one.tests) side.tests.set(id, outcome);
        for (const [id, text] of one.failures) side.failures.set(id, text);
        side.reportFound &&= one.reportFound;
        side.output ||= one.reportFound ? "" : one.result.stderr || one.result.stdout;
      }
      return side;
    };
    const b1 = await run(before);
    const a1 = await run(after);
    const [b2, a2] = [await run(before), await run(after)];
    if (!a1.reportFound || !a2.reportFound) {
      return drop(
        `tests do not run after the fix: ${errorLine(a1.output || a2.output)}${
          stack.limits ? `; ${stack.limits}` : ""
        }`,
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
      language: stack.language,
      difficulty: changedLines <= 4 && codeFiles === 1
        ? "easy"
        : codeFiles > 2 || changedLines > 40
        ? "hard"
        : "medium",
      kind: codeFiles > 1 ? "multi_file" : changedLines <= 2 ? "one_line_bug" : "feature",
      statement,
      runner: stack.runner,
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

/** The tests of one side of a candidate (its files run together or one by one). */
interface SideRun {
  tests: Map<string, TestOutcome>;
  failures: Map<string, string>;
  /** Whether every run wrote a report. */
  reportFound: boolean;
  /** What the first run without a report printed. */
  output: string;
}

/** Locks an environment build writes into a repository that has none (npm's, Deno's). */
const WRITTEN_LOCKS = ["package-lock.json", "deno.lock"];

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

/**
 * The candidate's environment, built from its declarations and cached by the hash of its lock
 * (npm's and Deno's from the repository's own lock; Python's resolved once per set of declared
 * requirements, then reused).
 */
async function candidateEnvironment(
  dir: string,
  stack: Stack,
  options: MineOptions,
  locks: Map<string, string>,
): Promise<{ lock: string | null; test: TestEnvironment | null }> {
  const lockPath = join(dir, "..", "env.lock");
  let key: string | null = null;
  if (stack.language === "python") {
    const project = await inspectRepository(dir);
    key = JSON.stringify([project.requirements, project.source_roots, project.addopts]);
    const known = locks.get(key);
    if (known) writeFileSync(lockPath, known);
  }
  const built = await buildRepoEnvironment(dir, stack.language, {
    cacheRoot: options.envCache,
    lockPath,
  });
  if (built === null) return { lock: null, test: null };
  const text = readFileSync(lockPath, "utf8");
  if (key !== null) locks.set(key, text);
  const resolved = resolveLock(lockPath, options.envCache);
  if (resolved.error) throw new EnvBuildError(resolved.error);
  return { lock: text, test: resolved };
}

/** The root configuration files stack detection reads (see {@linkcode STACK_FILES}), at `sha`. */
async function stackFiles(repo: string, sha: string): Promise<Record<string, string>> {
  const listed = await gitText(repo, ["ls-tree", "--name-only", "-z", sha, "--", ...STACK_FILES]);
  const out: Record<string, string> = {};
  for (const name of listed.split("\0").filter((n) => n !== "")) {
    out[name] = await gitText(repo, ["show", `${sha}:${name}`]);
  }
  return out;
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
function visibleTests(
  base: Map<string, Uint8Array>,
  hidden: string[],
  isTestModule: (path: string) => boolean,
): string[] {
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
    const top = /^(.*?(?:^|\/)(?:tests?|testing|__tests__)\/)/.exec(path)?.[1];
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

/** The line of a run's output that says what went wrong: its error line, else its last line. */
function errorLine(text: string): string {
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const error = lines.find((l) => /^(error|\w*Error)\b/.test(l)) ?? lines.at(-1) ?? "";
  return error.slice(0, 300);
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "repo";
}
