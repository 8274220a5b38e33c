/**
 * Running a task's tests through the sandbox and reading per-test outcomes from a
 * machine-readable report written outside the workspace: JUnit from `deno test` and pytest, a
 * small JSON results writer for `unittest`. Text the code under test prints is never parsed.
 */
import { timingSafeEqual } from "node:crypto";
import { dirname, join } from "node:path";
import { shared } from "../bytes.ts";
import { hmacSha256 } from "../hmac.ts";
import { isPythonRunner, type RunnerName } from "../task/spec.ts";
import { parseJunit, type TestOutcome } from "./junit.ts";
import {
  DENO_OBSERVE,
  denoPreload,
  type DenoRecords,
  IDENTITY_MARKER,
  readDenoRecords,
  RECORD_PREFIX,
} from "./_deno_preload.ts";
import {
  type CompiledReporter,
  PYTHON_BOOTSTRAP,
  REPORTER_COMPILER,
  reporterInput,
  reporterSource,
} from "./_python_reporter.ts";
import { nodeLibrary, type NodeRecords, nodeRunInput, readNodeRecords } from "./_node_preload.ts";
import { JEST_MAJOR, JEST_MISSING_STATUS, jestDriver, jestRunInput } from "./_jest_driver.ts";
import { EnvironmentFault, SandboxError, writingInto } from "../errors.ts";
import { removeFlatSync, removeTree } from "../workspace/remove.ts";
import type { Workspace } from "../workspace/workspace.ts";
import type { RunResult, Sandbox } from "./sandbox.ts";
import { patchgymCommand } from "../hint.ts";

/** The global function a separated deno test calls with each value under check. */
export { DENO_OBSERVE };
/** The jest major version the jest runner supports. */
export { JEST_MAJOR };

/**
 * Why a test run's results cannot be trusted: the closed set of codes a report or the grader
 * gives. `report_unverifiable`: the report's signature does not verify; `framework_tampered`: the
 * code under test replaced part of the test framework, the reporter or builtins;
 * `forbidden_operation`: it tried introspection, native code, new code objects or processes that
 * the reporter refuses; `test_identity`: a test ran code that does not come from a pristine test
 * file, or was registered from elsewhere; `shadowed_module`: a repository module stood in for a
 * standard-library or installed one; `canary_mismatch`: canary tests the grader added did not
 * come out as they must.
 */
export type IntegrityCode =
  | "report_unverifiable"
  | "framework_tampered"
  | "forbidden_operation"
  | "test_identity"
  | "shadowed_module"
  | "canary_mismatch";

/** Every {@linkcode IntegrityCode}, for validation and summaries. */
export const INTEGRITY_CODES: readonly IntegrityCode[] = [
  "report_unverifiable",
  "framework_tampered",
  "forbidden_operation",
  "test_identity",
  "shadowed_module",
  "canary_mismatch",
];

/** One reason not to trust a run, with a short detail for people. */
export interface IntegrityProblem {
  code: IntegrityCode;
  detail: string;
}

/**
 * A task's dependency environment as a test run uses it (built by `src/env/`): folders bound
 * read-only into the jail, Python package folders searched before the interpreter's own installed
 * packages, the repository's source roots (relative, searched after its root) and options every
 * pytest run gets.
 */
export interface TestEnvironment {
  /** Absolute folders bound read-only (their real paths). */
  mounts: string[];
  /** Absolute folders of installed packages. */
  pythonPaths: string[];
  /** Folders of the repository that hold its code, e.g. `src`. */
  sourceRoots: string[];
  /** pytest options (`-p plugin`, `-o addopts=...`). */
  pytestArgs: string[];
  /**
   * Folders bound read-only into the repository copy: `source` absolute, `dest` relative to the
   * repository (an npm environment's `node_modules`).
   */
  binds?: { source: string; dest: string }[];
  /**
   * A Deno environment's import map and `deno.lock` (absolute, in a folder of `mounts`, whose
   * `DENO_DIR` is in `env`): the bare names of the repository's `npm:` imports and the versions
   * they resolve to without the registry, for `deno test`.
   */
  deno?: { importMap: string; lock: string };
  /** Environment variables a `deno test` run gets (a Deno environment's `DENO_DIR`, registry). */
  env?: Record<string, string>;
  /** Why the environment cannot be used; a run with it throws a {@linkcode SandboxError}. */
  error?: string;
}

/** What to run. */
export interface TestRunRequest {
  runner: RunnerName;
  /** The repository copy to test (cwd of the child). */
  dir: string;
  /** Test files relative to `dir`. */
  files: readonly string[];
  /** Optional narrowing: a file from `files` or a test id (`file::Class::name`). */
  selector?: string;
  timeoutMs: number;
  /**
   * A folder of the orchestrator's, where the private report folder is made unless `reportRoot`
   * is given, and the sandbox's own checks always; defaults to the parent of `dir`.
   */
  scratchDir?: string;
  /**
   * The root of the workspace's own capped file system (see `Workspace.mountRoot`): the report
   * folder is made there, sharing its caps, instead of in a file system mounted for the run.
   */
  reportRoot?: string;
  maxOutputBytes?: number;
  /** Files relative to `dir` the tests may not change while they run (besides the test files). */
  readOnly?: string[];
  /**
   * Pristine files relative to `dir` whose code counts as test code (besides the test files),
   * e.g. files under protected paths restored by the grader.
   */
  trusted?: string[];
  /** The task's dependency environment, when it has one. */
  environment?: TestEnvironment;
  /**
   * The test files report observations (separated by the grader, see `reward/separate.ts`). The
   * Python reporter serializes them only in such runs; in others it ignores them.
   */
  observe?: boolean;
  /** Aborted before the run starts (its episode was interrupted): no run (see `RunRequest`). */
  signal?: AbortSignal;
}

/**
 * What one test reported from inside: the values it observed at its separated checks (by site
 * id, as the reporter serialized them) and the end markers it reached (see `reward/separate.ts`).
 */
export interface Observations {
  observed: { site: string; value: unknown }[];
  ends: string[];
}

/** Outcome of a test run. */
export interface TestRun {
  result: RunResult;
  /** Per-test outcomes by id, from the report; empty when no report was written. */
  tests: Map<string, TestOutcome>;
  counts: { passed: number; failed: number; skipped: number };
  /** Whether the runner wrote a report at all (no report: it crashed, timed out or was killed). */
  reportFound: boolean;
  /** Why the report cannot be trusted (forged signature, tampering); empty when it can. */
  problems: IntegrityProblem[];
  /** Failure output of failed or errored tests by id (bounded), from the report. */
  failures: Map<string, string>;
  /** What each test observed, by id (empty when the test files were not separated). */
  observations: Map<string, Observations>;
  /** The command as a person would type it (for the model's benefit). */
  display: string;
}

/** A selector that does not name one of the test files or a test in them. */
export function checkSelector(files: readonly string[], selector: string): string | null {
  const file = selector.split("::")[0];
  if (files.includes(file)) return null;
  return `Selector "${selector}" is not one of the visible test files (${
    files.map((f) => `"${f}"`).join(", ")
  }); use a file or "file::Class::test_name"`;
}

/** Whether `selector` (a file, a test id or a suite's id) selects the test `id`. */
function selects(selector: string, id: string): boolean {
  return id === selector || id.startsWith(`${selector}::`) || id.startsWith(`${selector} > `);
}

/** Run tests in the sandbox and read the report. */
export async function runTests(sandbox: Sandbox, request: TestRunRequest): Promise<TestRun> {
  if (request.runner === "jest" && !request.selector && request.files.length > 1) {
    return await runJestFiles(sandbox, request);
  }
  request.signal?.throwIfAborted();
  const environment = request.environment;
  if (environment?.error) {
    throw new SandboxError(`Cannot run the tests: ${environment.error}`);
  }
  const scratch = request.scratchDir ?? dirname(request.dir);
  // New files and folders on the work root's disk stay asynchronous (making one can take a
  // millisecond there); checks and reads of existing small files are synchronous (microseconds,
  // against tens for a hand-off to Deno's blocking thread pool and back), and so is the report
  // folder in the workspace's own file system (in memory: no disk to wait for).
  const reportDir = await inReportRoot(
    request,
    () =>
      request.reportRoot !== undefined
        ? Deno.makeTempDirSync({ dir: request.reportRoot, prefix: ".report-" })
        : Deno.makeTempDir({ dir: scratch, prefix: ".report-" }),
  );
  // Code under test may write the report folder, so where the workspace is a capped file system
  // of its own (root with bwrap) the folder is in one too: on the work root's disk a test run once
  // wrote 200 MiB and 30,000 files there, past the workspace's caps. It is the workspace's own when
  // the folder is made there, else one mounted for this run.
  const capped = request.reportRoot !== undefined
    ? null
    : sandbox.workspaceMount(REPORT_FOLDER_BYTES, REPORT_FOLDER_ENTRIES);
  let mounted = false;
  try {
    if (capped) {
      await capped.mount(reportDir);
      mounted = true;
    }
    const reportPath = `${reportDir}/report`;
    const recordsDir = `${reportDir}/records`;
    const targets = request.selector ? [request.selector] : request.files;
    const trusted = [...new Set([...request.files, ...(request.trusted ?? [])])]
      .map((f) => join(request.dir, f));
    const python = isPythonRunner(request.runner);
    const node = request.runner === "node_test" || request.runner === "jest";
    const key = randomHex(32);
    const readOnly = canonical(
      [...new Set([...request.files, ...(request.readOnly ?? [])])].map((f) =>
        `${request.dir}/${f}`
      ),
    );
    if (request.runner === "deno_test") {
      await inReportRoot(request, async () => {
        await Deno.mkdir(recordsDir);
        await Deno.writeTextFile(`${reportDir}/preload.js`, denoPreload(trusted, key, recordsDir));
      });
    }
    const binds = await bindPoints(request.dir, environment?.binds ?? []);
    if (request.runner === "jest") {
      const missing = jestProblem(request.dir, environment);
      if (missing) throw new EnvironmentFault(missing);
    }
    const nodeRun = await inReportRoot(
      request,
      () =>
        request.runner === "jest"
          ? jestRunSetup(reportDir, request, targets, trusted, key)
          : node
          ? nodeRunSetup(reportDir, request, targets, trusted, key)
          : Promise.resolve(null),
    );
    const compiled = request.runner === "unittest" || request.runner === "pytest"
      ? await compiledReporter(sandbox, request.runner, scratch)
      : null;
    const result = await sandbox.run({
      argv: nodeRun?.argv ??
        commandFor(request.runner, request.dir, targets, reportPath, recordsDir, trusted, {
          deno: environment?.deno,
        }),
      cwd: request.dir,
      timeoutMs: request.timeoutMs,
      writable: [reportDir],
      // Code under test must not rewrite a test file before the runner loads it.
      readOnly: [...readOnly, ...(environment?.mounts ?? [])],
      ...(binds.length > 0 ? { binds } : {}),
      maxOutputBytes: request.maxOutputBytes,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(nodeRun ? { stdin: encoder.encode(nodeRun.stdin), env: { TMPDIR: nodeRun.tmp } } : {}),
      ...(request.runner === "deno_test" && environment?.env ? { env: environment.env } : {}),
      ...(request.runner !== "unittest" && request.runner !== "pytest" ? {} : {
        warm: true,
        // pytest imported once, where the run would import it: the interpreter's own, unless the
        // task's environment brings packages (maybe its own pytest).
        ...(request.runner === "pytest" && (environment?.pythonPaths ?? []).length === 0
          ? { warmModules: ["pytest"] }
          : {}),
        stdin: reporterInput(request.runner, {
          key,
          report: reportPath,
          repo: request.dir,
          targets: [...targets],
          trusted,
          paths: environment?.pythonPaths ?? [],
          sources: (environment?.sourceRoots ?? []).map((r) => join(request.dir, r)),
          args: request.runner === "pytest" ? environment?.pytestArgs ?? [] : [],
          ...(request.observe ? { observe: true } : {}),
        }, compiled),
      }),
    });
    // Without the jail the run's temporary folder is the host's (a link there is removed, never
    // followed).
    if (nodeRun) await removeTree(nodeRun.tmp).catch(() => {});
    const report = await readReport(node ? nodeRun!.records : reportPath);
    // A Python report is read (and its signature checked) once, node's records too.
    const pythonRead = report !== null && python
      ? readPythonReport(report, key, request.files)
      : null;
    const nodeRecords = report !== null && node ? readNodeRecords(report, key) : null;
    // Deno's JUnit report is signed by its records, read below.
    const signed = report !== null &&
      (pythonRead ? !pythonRead.problems.some((p) => p.code === "report_unverifiable") : true) &&
      (nodeRecords ? nodeRecords.outcomes.size > 0 : true);
    if (!signed) {
      if (request.runner === "jest" && result.exitCode === JEST_MISSING_STATUS) {
        // The driver stops there, before any code under test, when jest is missing or unsupported.
        const said = result.stderr.split("\n").find((line) => line.startsWith("patchgym: "));
        if (said) throw new EnvironmentFault(`Cannot run jest: ${said.slice(10)}`);
      }
      // No report the reporter signed: first rule out a runner missing on this machine, which is
      // an environment fault, not something the code under test did.
      const missing = await runnerProblem(sandbox, request.runner, scratch);
      if (missing) throw new EnvironmentFault(missing);
    }
    const read = report === null
      ? {
        tests: new Map<string, TestOutcome>(),
        failures: new Map<string, string>(),
        problems: [],
        observations: new Map<string, Observations>(),
      }
      : pythonRead ??
        (nodeRecords
          ? readNodeReport(nodeRecords, nodeRun!.dir, `${reportDir}/lib`)
          : readDenoReport(
            report,
            request.dir,
            readDenoRecords(await readRecords(recordsDir), key),
          ));
    const unsigned = read.problems.some((p) => p.code === "report_unverifiable");
    if (result.timedOut) {
      // Killed at its timeout, the reporter never signed what it had written: the run counts as
      // timed out (no test passes), not as a report someone tampered with.
      read.problems = read.problems.filter((p) => p.code !== "report_unverifiable");
    }
    // deno test prints what tests write to stderr among its own output, on either stream.
    const output = `${result.stdout}\n${result.stderr}`;
    if (request.runner === "deno_test" && output.includes(`${IDENTITY_MARKER}${key}`)) {
      read.problems.push({
        code: "test_identity",
        detail: "a test was registered from code under test, not from a test file",
      });
    }
    if (request.selector) {
      // deno test lists tests its --filter left out as skipped; they were not selected, so drop them.
      for (const id of [...read.tests.keys()]) {
        if (!selects(request.selector, id)) read.tests.delete(id);
      }
    }
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const outcome of read.tests.values()) {
      if (outcome === "passed") counts.passed++;
      else if (outcome === "skipped") counts.skipped++;
      else counts.failed++;
    }
    return {
      result,
      tests: read.tests,
      counts,
      reportFound: report !== null && !unsigned,
      problems: read.problems,
      failures: read.failures,
      observations: read.observations,
      display: testCommandLine(request.runner, targets),
    };
  } finally {
    if (mounted) await capped!.unmount(reportDir);
    // The code under test shaped this folder: one it cannot remove never takes the place of the
    // run's result (the work root's removal at exit tries again). In the workspace's own file
    // system, a report and little else goes at once.
    if (request.reportRoot === undefined || !removeFlatSync(reportDir, REPORT_ENTRIES_AT_ONCE)) {
      await removeTree(reportDir).catch(() => {});
    }
  }
}

/**
 * Where a test run in `workspace` makes its folders: the sandbox's checks in the folder it was made
 * in, the report folder in its own capped file system when it has one.
 */
export function testRunPlaces(
  workspace: Pick<Workspace, "scratch" | "mountRoot">,
): Pick<TestRunRequest, "scratchDir" | "reportRoot"> {
  return {
    scratchDir: workspace.scratch,
    ...(workspace.mountRoot ? { reportRoot: workspace.mountRoot } : {}),
  };
}

/**
 * `write`, which makes the report folder or writes in it: in the workspace's own file system
 * (`reportRoot`), a refusal for want of room is the workspace's, filled by its own code.
 */
function inReportRoot<T>(request: TestRunRequest, write: () => Promise<T> | T): Promise<T> {
  return writingInto(request.reportRoot !== undefined, "Cannot run the tests", write);
}

/**
 * A jest run of several test files: one process per file, in turn, within the request's time and
 * output budgets, merged into one run. In one process, code under test that one file loads can
 * reach jest's own modules (the outer realm: its `require("vm")` is Node's) and change how the next
 * file is read or compiled; a process of its own starts every file from jest's pristine code.
 */
async function runJestFiles(sandbox: Sandbox, request: TestRunRequest): Promise<TestRun> {
  // The runs' own time, from each process's start: a run waiting for one of the sandbox's run
  // slots (held by other episodes' runs) spends none of the budget, nor does the wait for a CPU
  // that a file's timeout gave again, as with a single run's timeout.
  let used = 0;
  const share = Math.max(
    4096,
    Math.floor((request.maxOutputBytes ?? 32 * 1024) / request.files.length),
  );
  const runs: TestRun[] = [];
  for (const file of request.files) {
    const left = Math.round(request.timeoutMs - used);
    if (left <= 0) break;
    const run = await runTests(sandbox, {
      ...request,
      files: [file],
      // The other test files stay read-only and count as test code as in one run.
      readOnly: [...(request.readOnly ?? []), ...request.files],
      trusted: [...(request.trusted ?? []), ...request.files],
      timeoutMs: left,
      maxOutputBytes: share,
    });
    runs.push(run);
    used += run.result.durationMs - run.result.waitedMs;
  }
  const first = runs[0];
  const tests = new Map<string, TestOutcome>();
  const failures = new Map<string, string>();
  const observations = new Map<string, Observations>();
  const problems: IntegrityProblem[] = [];
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const run of runs) {
    for (const [id, outcome] of run.tests) tests.set(id, outcome);
    for (const [id, text] of run.failures) failures.set(id, text);
    for (const [id, seen] of run.observations) observations.set(id, seen);
    for (const problem of run.problems) {
      if (!problems.some((p) => p.code === problem.code)) problems.push(problem);
    }
    counts.passed += run.counts.passed;
    counts.failed += run.counts.failed;
    counts.skipped += run.counts.skipped;
  }
  const results = runs.map((r) => r.result);
  const timedOut = runs.length < request.files.length || results.some((r) => r.timedOut);
  return {
    result: {
      ...first.result,
      exitCode: results.find((r) => r.exitCode !== 0)?.exitCode ?? 0,
      signal: results.find((r) => r.signal !== null)?.signal ?? null,
      timedOut,
      stdout: results.map((r) => r.stdout).join("\n"),
      stderr: results.map((r) => r.stderr).join("\n"),
      truncated: results.some((r) => r.truncated),
      outputBytes: results.reduce((sum, r) => sum + r.outputBytes, 0),
      durationMs: results.reduce((sum, r) => sum + r.durationMs, 0),
      capsHit: {
        processes: results.some((r) => r.capsHit.processes),
        memory: results.some((r) => r.capsHit.memory),
      },
    },
    tests,
    counts,
    reportFound: runs.every((r) => r.reportFound),
    problems,
    failures,
    observations,
    display: testCommandLine("jest", request.files),
  };
}

const compiledReporters = new WeakMap<
  Sandbox,
  Map<"unittest" | "pytest", Promise<CompiledReporter | null>>
>();

/**
 * The Python reporter for `runner` compiled once per sandbox by the jail's own interpreter, or null
 * when that failed (each run then compiles the source itself: the same reporter, about 5 ms more).
 * The compiling run is isolated (`-I -S`, builtin modules only) in an empty folder of its own under
 * `scratch`: no repository file or earlier run can reach the code every later run executes.
 */
export function compiledReporter(
  sandbox: Sandbox,
  runner: "unittest" | "pytest",
  scratch: string,
): Promise<CompiledReporter | null> {
  let compiled = compiledReporters.get(sandbox);
  if (!compiled) compiledReporters.set(sandbox, compiled = new Map());
  let found = compiled.get(runner);
  if (!found) {
    found = compileReporter(sandbox, runner, scratch);
    compiled.set(runner, found);
  }
  return found;
}

async function compileReporter(
  sandbox: Sandbox,
  runner: "unittest" | "pytest",
  scratch: string,
): Promise<CompiledReporter | null> {
  let dir: string | null = null;
  try {
    dir = await Deno.makeTempDir({ dir: scratch, prefix: ".compile-" });
    const result = await sandbox.run({
      argv: ["python3", "-I", "-S", "-c", REPORTER_COMPILER],
      cwd: dir,
      timeoutMs: 30_000,
      maxOutputBytes: 4 * 1024 * 1024,
      stdin: encoder.encode(reporterSource(runner)),
    });
    const [hexversion, hex] = result.stdout.split("\n");
    if (
      result.exitCode !== 0 || result.truncated || !/^\d+$/.test(hexversion ?? "") ||
      !/^(?:[0-9a-f]{2})+$/.test(hex ?? "")
    ) {
      return null;
    }
    const code = new Uint8Array(hex.length / 2);
    for (let i = 0; i < code.length; i++) code[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    // In memory the spawner thread shares: every run sends it.
    return { hexversion, code: shared(code) };
  } catch {
    return null;
  } finally {
    if (dir !== null) await removeTree(dir).catch(() => {});
  }
}

/** What each runner needs in the jail, checked with the interpreter's isolated mode. */
const RUNNER_CHECKS: Record<RunnerName, { argv: string[]; needs: string }> = {
  unittest: { argv: ["python3", "-I", "-c", "import unittest"], needs: "python3" },
  pytest: { argv: ["python3", "-I", "-c", "import pytest"], needs: "pytest (python3 -m pytest)" },
  deno_test: { argv: ["deno", "--version"], needs: "deno" },
  // The permission model node_test runs under came with Node 20.
  node_test: {
    argv: ["node", "-e", "process.exit(Number(process.versions.node.split('.')[0]) >= 20 ? 0 : 1)"],
    needs: "node 20 or newer",
  },
  // jest itself comes from the task's npm environment (checked before the run, jestProblem()).
  jest: {
    argv: ["node", "-e", "process.exit(Number(process.versions.node.split('.')[0]) >= 20 ? 0 : 1)"],
    needs: "node 20 or newer",
  },
};

const runnerChecks = new WeakMap<Sandbox, Map<RunnerName, Promise<string | null>>>();

/**
 * Why `runner` cannot run in `sandbox`'s jail on this machine (e.g. pytest is not installed), or
 * null when it can; checked once per sandbox and runner, in an empty folder of its own made under
 * `scratch` (a folder of the orchestrator's). The answer holds for every later run of the
 * sandbox, every episode's, so nothing an episode controls may weigh on it: not its workspace
 * (code under test could close it up and make the check fail: every later run without a report
 * would then be an environment fault), not its files (Python checks run isolated, `-I`).
 */
export function runnerProblem(
  sandbox: Sandbox,
  runner: RunnerName,
  scratch: string,
): Promise<string | null> {
  let checks = runnerChecks.get(sandbox);
  if (!checks) runnerChecks.set(sandbox, checks = new Map());
  let check = checks.get(runner);
  if (!check) {
    check = checkRunner(sandbox, runner, scratch);
    checks.set(runner, check);
    // A check that could not run at all, or whose jail could not start (a shortage that may
    // pass), is tried again next time.
    check.then((p) =>
      (p?.startsWith("cannot check") || p?.startsWith(JAIL_FAILED)) && checks.delete(runner)
    );
  }
  return check.then((p) => p?.startsWith("cannot check") ? null : p);
}

/** How {@linkcode runnerProblem} begins when the check's jail could not start. */
const JAIL_FAILED = "the jail could not start";

/** {@linkcode runnerProblem} when bwrap said `said` and made no jail. */
function jailFailed(said: string): string {
  // EAGAIN from clone(): the process cap, which the sh launcher sets before bwrap, where the
  // kernel counts every process and thread of the user (docs/sandbox.md, "Known limits").
  const cap = said.includes("Resource temporarily unavailable")
    ? "; this user's processes and threads reached its process limit (RLIMIT_NPROC): without root and without the compiled launcher the limit counts all of them, patchgym's and every other program's (docs/sandbox.md)"
    : "";
  return `${JAIL_FAILED} on this machine (${said.slice(0, 200)})${cap}; run "${
    patchgymCommand("doctor")
  }"`;
}

async function checkRunner(sandbox: Sandbox, runner: RunnerName, scratch: string) {
  const { argv, needs } = RUNNER_CHECKS[runner];
  let cwd: string | null = null;
  try {
    // Private (0700), as every folder handed to a sandbox must be (the launcher's chown step).
    cwd = await Deno.makeTempDir({ dir: scratch, prefix: ".runner-check-" });
    const result = await sandbox.run({ argv, cwd, timeoutMs: 30_000, maxOutputBytes: 4096 });
    if (result.exitCode === 0 || result.timedOut) return null;
    const last = result.stderr.trim().split("\n").filter(Boolean).pop() ?? "";
    // bwrap's own words: the jail failed, not the runner (nothing but the check runs in it).
    if (last.startsWith("bwrap: ")) return jailFailed(last);
    return `${needs} is not available in the sandbox on this machine: "${
      argv.join(" ")
    }" exited ${result.exitCode}${
      last ? ` (${last.slice(0, 200)})` : ""
    }; install it (e.g. apt-get install python3-pytest) and run "${patchgymCommand("doctor")}"`;
  } catch (error) {
    if (error instanceof SandboxError) {
      return `${needs} cannot start in the sandbox on this machine: ${error.message}`;
    }
    return `cannot check ${needs}: ${String(error)}`;
  } finally {
    if (cwd !== null) await removeTree(cwd).catch(() => {});
  }
}

/** Largest report read; a bigger one counts as no report. */
const MAX_REPORT_BYTES = 32 * 1024 * 1024;
/**
 * The room a run's report folder takes in a capped file system: a report and the records of the
 * largest size read, plus the node runner's own files.
 */
export const REPORT_FOLDER_BYTES = 2 * MAX_REPORT_BYTES + 4 * 1024 * 1024;
export const REPORT_FOLDER_ENTRIES = 20_000;

/**
 * Entries of a report folder in the workspace's own file system that are removed on the spot (a
 * Python run's report and what code under test left beside it); more, or a folder among them (the
 * other runners' records), go through `removeTree`.
 */
const REPORT_ENTRIES_AT_ONCE = 64;

/**
 * The report's text, or null when there is none. Code under test can write in the report's folder,
 * so only a regular file is read, never what a symlink there leads to, nor a FIFO (opening one
 * without a writer blocks for good); every process of the run is gone by now, so nothing swaps the
 * file between the check and the read.
 */
async function readReport(path: string): Promise<string | null> {
  let stat: Deno.FileInfo;
  try {
    stat = Deno.lstatSync(path);
  } catch {
    return null;
  }
  if (!stat.isFile || stat.size > MAX_REPORT_BYTES) return null;
  if (stat.size > SYNC_READ_BYTES) return await Deno.readTextFile(path).catch(() => null);
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

/** Reports up to this size are read synchronously (well under a millisecond); bigger ones not. */
const SYNC_READ_BYTES = 256 * 1024;

/**
 * The text of every record file the deno preload wrote in `dir` (one per test file's isolate);
 * like a report, only regular files count, within the report size bound.
 */
async function readRecords(dir: string): Promise<string> {
  const texts: string[] = [];
  let bytes = 0;
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isFile || !entry.name.startsWith(RECORD_PREFIX)) continue;
    const text = await readReport(`${dir}/${entry.name}`);
    bytes += text?.length ?? 0;
    if (text === null || bytes > MAX_REPORT_BYTES) return "";
    texts.push(text);
  }
  return texts.join("\n");
}

/**
 * The paths of `paths` that exist and are their own real paths. A test file the agent replaced
 * with a symlink is no longer a test to protect, and the sandbox refuses to bind a path through a
 * symlink.
 */
function canonical(paths: string[]): string[] {
  return paths.filter((p) => {
    try {
      return Deno.realPathSync(p) === p;
    } catch {
      return false;
    }
  });
}

/** What a report says: outcomes, failure output and integrity problems. */
interface ReportContent {
  tests: Map<string, TestOutcome>;
  failures: Map<string, string>;
  problems: IntegrityProblem[];
  observations: Map<string, Observations>;
}

/** The observations of test `id` in `map`, made empty on first use. */
function observationsOf(map: Map<string, Observations>, id: string): Observations {
  let found = map.get(id);
  if (found === undefined) {
    found = { observed: [], ends: [] };
    map.set(id, found);
  }
  return found;
}

function commandFor(
  runner: RunnerName,
  dir: string,
  targets: readonly string[],
  report: string,
  records: string,
  trusted: string[],
  options: { deno?: { importMap: string; lock: string } } = {},
): string[] {
  switch (runner) {
    case "unittest":
    case "pytest":
      return ["python3", "-I", "-B", "-u", "-c", PYTHON_BOOTSTRAP];
    case "node_test":
    case "jest":
      throw new Error("node_test and jest commands are made by nodeRunSetup() and jestRunSetup()");
    case "deno_test": {
      const files = [...new Set(targets.map((t) => t.split("::")[0]))];
      const names = targets.filter((t) => t.includes("::")).map((t) =>
        t.split("::").slice(1).join("::")
      );
      const filter = names.length > 0
        ? [`--filter=/^(${names.map(escapeRegExp).join("|")})$/`]
        : [];
      // Code under test must not read the tests' source: it would learn expected values and tell
      // canaries from real tests. deno loads its test modules without a read check; everything
      // else (Deno.readFile, fetch, node:fs) is refused, and import attributes are off because a
      // `type: "text"` import returns a loaded module's source without any check.
      const sources = trusted.filter((path) => SCRIPT.test(path));
      const folders = [...new Set(sources.map(dirname))].filter((folder) => folder !== dir);
      return [
        "deno",
        "test",
        "--no-config",
        // A Deno environment: npm packages from its DENO_DIR (read-only, loaded without a read
        // grant like any module), bare names through the import map built with it from the
        // repository's own config (--no-config keeps the copy's config, the agent's, out), their
        // versions from the deno.lock built with it (a frozen install caches no registry data).
        ...(options.deno
          ? [
            `--import-map=${options.deno.importMap}`,
            `--lock=${options.deno.lock}`,
            "--frozen",
            "--node-modules-dir=none",
          ]
          : ["--no-lock"]),
        "--no-check",
        "--cached-only",
        "--no-prompt",
        `--allow-read=${dir}`,
        // The preload makes its record file there first, then revokes this grant.
        `--allow-write=${dir},${records}`,
        // Renaming a test file's folder would move its source out from under --deny-read.
        ...(sources.length > 0
          ? [
            `--deny-read=${sources.join(",")}`,
            `--deny-write=${[...sources, ...folders].join(",")}`,
          ]
          : []),
        "--v8-flags=--max-old-space-size=512,--no-harmony-import-attributes",
        `--junit-path=${report}`,
        `--preload=${dirname(report)}/preload.js`,
        ...filter,
        ...files,
      ];
    }
  }
}

/** Files whose source a deno test run keeps from code under test. */
const SCRIPT = /\.(?:[cm]?[jt]sx?)$/;

/** The test command as a person would type it, shown to the model. */
export function testCommandLine(runner: RunnerName, targets: readonly string[]): string {
  switch (runner) {
    case "unittest":
      return `python3 -m unittest ${
        targets.map((t) => t.replace(/\.py(::|$)/, "$1").replaceAll("/", ".").replaceAll("::", "."))
          .join(" ")
      }`;
    case "pytest":
      return `python3 -m pytest ${targets.join(" ")}`;
    case "deno_test":
      return `deno test ${targets.join(" ")}`;
    case "node_test":
      return `node --test ${targets.join(" ")}`;
    case "jest":
      return `npx jest --runInBand ${targets.join(" ")}`;
  }
}

/**
 * The environment's binds with their places in `dir` made: an empty folder where there is none or
 * something else is (a folder the repository has there is hidden by the bind).
 */
async function bindPoints(
  dir: string,
  binds: { source: string; dest: string }[],
): Promise<{ source: string; dest: string }[]> {
  const out: { source: string; dest: string }[] = [];
  for (const bind of binds) {
    // Each folder down to the bind point is made a real folder: the agent's code may have left a
    // symlink or a file at any of them (which the sandbox refuses to bind through, or a recursive
    // mkdir would follow out of the workspace). No process of the agent's runs meanwhile.
    let dest = dir;
    for (const part of bind.dest.split("/").filter((p) => p !== "" && p !== ".")) {
      dest = join(dest, part);
      const stat = await Deno.lstat(dest).catch(() => null);
      if (stat?.isDirectory) continue;
      if (stat) await Deno.remove(dest);
      await Deno.mkdir(dest);
    }
    out.push({ source: bind.source, dest });
  }
  return out;
}

/**
 * What a node or jest run is told of its targets: the trusted paths, the repository and the test
 * files by their real paths (V8 names a module by its real path, so they are compared in that
 * form), and the test names asked for (`file::name` targets).
 */
async function nodeTargets(
  request: TestRunRequest,
  targets: readonly string[],
  trustedPaths: string[],
): Promise<{ trusted: string[]; dir: string; files: string[]; names: string[] }> {
  const trusted = await Promise.all(
    trustedPaths.map((path) => Deno.realPath(path).catch(() => path)),
  );
  const dir = await Deno.realPath(request.dir);
  const files = [...new Set(targets.map((t) => t.split("::")[0]))].map((f) => join(dir, f));
  const names = targets.filter((t) => t.includes("::")).map((t) =>
    t.split("::").slice(1).join("::")
  );
  return { trusted, dir, files, names };
}

/** A node_test run's command, stdin document and record file (see `_node_preload.ts`). */
async function nodeRunSetup(
  reportDir: string,
  request: TestRunRequest,
  targets: readonly string[],
  trustedPaths: string[],
  key: string,
): Promise<{ argv: string[]; stdin: string; records: string; dir: string; tmp: string }> {
  const lib = `${reportDir}/lib`;
  await Deno.mkdir(lib);
  for (const [name, text] of Object.entries(nodeLibrary())) {
    await Deno.writeTextFile(`${lib}/${name}`, text);
  }
  const { trusted, dir, files, names } = await nodeTargets(request, targets, trustedPaths);
  const records = `${reportDir}/records`;
  const mounts = request.environment?.mounts ?? [];
  // The tests' own scripts are served from memory by the hooks and never readable in the run.
  const scripts = trusted.filter((path) => SCRIPT.test(path) && path.startsWith(`${dir}/`));
  const sources: Record<string, string> = {};
  for (const path of scripts) {
    const text = await Deno.readTextFile(path).catch(() => null);
    if (text !== null) sources[path] = text;
  }
  const readable = await readableAround(dir, Object.keys(sources));
  // A temporary folder of the run's own (os.tmpdir()), not all of /tmp: the workspace may lie
  // under /tmp, and a grant there would make the tests' files readable again.
  const tmp = `/tmp/patchgym-node-${randomHex(8)}`;
  const argv = [
    "node",
    "--experimental-permission",
    // Each grant a flag of its own (node 20.x reads one path per flag).
    // A folder that does not exist yet (tmp) is granted as a prefix ("*": itself and its
    // contents; its name is random, so nothing else starts with it).
    ...[`${lib}`, ...readable, ...mounts, `${tmp}*`].map((p) => `--allow-fs-read=${p}`),
    ...[dir, records, `${tmp}*`].map((p) => `--allow-fs-write=${p}`),
    // The resolve hooks run in a loader thread; child processes stay refused.
    "--allow-worker",
    "--no-warnings",
    "--disable-proto=delete",
    "--max-old-space-size=512",
    "--test-reporter=spec",
    `--import=${toFileUrl(`${lib}/preload.mjs`)}`,
    `${lib}/driver.mjs`,
  ];
  const stdin = nodeRunInput({
    key,
    records,
    trusted,
    files,
    names,
    wrapper: toFileUrl(`${lib}/wrapper.mjs`),
    hooks: toFileUrl(`${lib}/hooks.mjs`),
    sources,
    tmp,
  });
  return { argv, stdin, records, dir, tmp };
}

/**
 * Why jest cannot run for the repository at `dir` with `environment` (jest missing from its
 * `node_modules`, or a major version other than the one the runner supports), or null. Read on the
 * host, before the run: the environment's `node_modules` is bound into the jail read-only.
 */
function jestProblem(dir: string, environment: TestEnvironment | undefined): string | null {
  const bound = environment?.binds?.find((b) => b.dest === "node_modules")?.source;
  const modules = bound ?? join(dir, "node_modules");
  let version: unknown;
  try {
    version = JSON.parse(Deno.readTextFileSync(join(modules, "jest", "package.json"))).version;
  } catch {
    return `Cannot run jest: jest is not installed in the repository's npm environment (no "${
      join(modules, "jest")
    }"); declare jest ${JEST_MAJOR} in package.json's devDependencies, commit package-lock.json and run "patchgym env build"`;
  }
  if (typeof version !== "string" || version.split(".")[0] !== String(JEST_MAJOR)) {
    return `Cannot run jest: the npm environment has jest ${
      String(version)
    }; the jest runner needs jest ${JEST_MAJOR} (jest 30 resolves modules with a native addon, which Node's permission model refuses)`;
  }
  return null;
}

/**
 * A jest run's command, stdin document and record file (see `_jest_driver.ts`): the same shape and
 * grants as a node_test run, but no worker threads and no hidden test sources (jest reads the test
 * files itself).
 */
async function jestRunSetup(
  reportDir: string,
  request: TestRunRequest,
  targets: readonly string[],
  trustedPaths: string[],
  key: string,
): Promise<{ argv: string[]; stdin: string; records: string; dir: string; tmp: string }> {
  const lib = `${reportDir}/lib`;
  await Deno.mkdir(lib);
  await Deno.writeTextFile(`${lib}/driver.cjs`, jestDriver());
  const { trusted, dir, files, names } = await nodeTargets(request, targets, trustedPaths);
  const records = `${reportDir}/records`;
  const mounts = request.environment?.mounts ?? [];
  // A temporary folder of the run's own (os.tmpdir(), where jest computes its cache folder).
  const tmp = `/tmp/patchgym-jest-${randomHex(8)}`;
  const argv = [
    "node",
    "--experimental-permission",
    ...[lib, dir, ...mounts, `${tmp}*`].map((p) => `--allow-fs-read=${p}`),
    ...[dir, records, `${tmp}*`].map((p) => `--allow-fs-write=${p}`),
    "--no-warnings",
    "--disable-proto=delete",
    "--max-old-space-size=512",
    `${lib}/driver.cjs`,
  ];
  const stdin = jestRunInput({ key, records, dir, trusted, files, names, tmp });
  return { argv, stdin, records, dir, tmp };
}

/**
 * What a node_test run may read in `dir`: everything but `hidden` (absolute paths), as the fewest
 * grants (a folder with none of them in it is one grant; `dir` itself is readable only through
 * them, so a file made later at a level that holds a hidden file cannot be read).
 */
async function readableAround(dir: string, hidden: string[]): Promise<string[]> {
  if (hidden.length === 0) return [dir];
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (hidden.includes(path)) continue;
    if (entry.isDirectory && hidden.some((h) => h.startsWith(`${path}/`))) {
      out.push(...await readableAround(path, hidden));
    } else out.push(path);
  }
  return out.sort();
}

function toFileUrl(path: string): string {
  return `file://${path.split("/").map(encodeURIComponent).join("/")}`;
}

/**
 * Test ids (`file::name`) from a node_test run's signed records: a test passes only with a signed
 * `passed` record of its own function; registered but never finished is an error; a registration
 * refused for coming from code under test is `test_identity`. Lines that do not verify are ignored
 * (code under test could write in the file, but not sign).
 */
function readNodeReport(read: NodeRecords, dir: string, libDir: string): ReportContent {
  const tests = new Map<string, TestOutcome>();
  const failures = new Map<string, string>();
  const problems: IntegrityProblem[] = [];
  const relative = (file: string) => file.startsWith(`${dir}/`) ? file.slice(dir.length + 1) : file;
  for (const [file, byName] of read.outcomes) {
    for (const [name, kind] of byName) {
      const id = `${relative(file)}::${name}`;
      tests.set(id, kind === "registered" ? "error" : kind);
      if (kind === "registered") {
        failures.set(id, "the test did not finish (the run stopped first)");
      }
    }
  }
  for (const [file, byName] of read.failures) {
    for (const [name, text] of byName) {
      // The preload's own frames say nothing about the test, nor do jest's.
      const own = text.split("\n").filter((line) =>
        !line.includes(`${libDir}/`) && !JEST_FRAME.test(line)
      ).join("\n");
      failures.set(`${relative(file)}::${name}`, own);
    }
  }
  if (read.identity) {
    problems.push({
      code: "test_identity",
      detail: "a test was registered from code under test, not from a test file",
    });
  }
  const observations = new Map<string, Observations>();
  for (const [file, byName] of read.observed) {
    for (const [name, seen] of byName) {
      observationsOf(observations, `${relative(file)}::${name}`).observed.push(...seen);
    }
  }
  return { tests, failures, problems, observations };
}

/** A stack frame of jest's own packages (`at ... (/…/node_modules/jest-circus/build/run.js:…)`). */
const JEST_FRAME = /^\s+at .*\/node_modules\/(?:jest-[\w-]+|@jest\/[\w-]+)\//;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * Test ids (`file::name`) from a deno test JUnit report, which the runtime writes, checked against
 * the preload's records of what each test function itself did (`records`, by absolute file and
 * name). The runner's JavaScript runs in the same process as the code under test, so its verdict
 * alone is not enough: a pass counts only when the test's function returned or settled without
 * throwing (a step, named `test > step`, needs its test's record); a pass without one is an error
 * and `framework_tampered`.
 */
function readDenoReport(
  report: string,
  dir: string,
  read: DenoRecords,
): ReportContent {
  const records = read.outcomes;
  const observations = new Map<string, Observations>();
  for (const [file, byName] of read.observed) {
    const relative = file.startsWith(`${dir}/`) ? file.slice(dir.length + 1) : file;
    for (const [name, observed] of byName) {
      observationsOf(observations, `${relative}::${name}`).observed.push(...observed);
    }
  }
  const tests = new Map<string, TestOutcome>();
  const failures = new Map<string, string>();
  const problems: IntegrityProblem[] = [];
  for (const testcase of parseJunit(report)) {
    const file = testcase.classname.replace(/^\.\//, "");
    const id = `${file}::${testcase.name}`;
    let outcome = testcase.outcome;
    if (outcome === "passed") {
      const own = recordOf(records.get(join(dir, file)), testcase.name);
      if (own !== "passed") {
        outcome = own === "failed" ? "failed" : "error";
        failures.set(id, "deno test reported a pass for this test, but its function did not pass");
        if (problems.length === 0) {
          problems.push({
            code: "framework_tampered",
            detail: `deno test reported "${id}" as passed, but its function ${
              own === "failed" ? "threw" : "never finished"
            }`,
          });
        }
      }
    }
    tests.set(id, worst(tests.get(id), outcome));
    if (testcase.message && !failures.has(id)) failures.set(id, testcase.message);
  }
  return { tests, failures, problems, observations };
}

/** The record of test `name`, or for a step (`test > step`) the record of its test. */
function recordOf(
  byName: Map<string, "passed" | "failed"> | undefined,
  name: string,
): "passed" | "failed" | undefined {
  if (byName === undefined) return undefined;
  const parts = name.split(" > ");
  for (let n = parts.length; n > 0; n--) {
    const found = byName.get(parts.slice(0, n).join(" > "));
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * A Python report: `O <outcome> <hex id>`, `F <hex id> <hex text>` and `P <code> <hex detail>`
 * lines, then `M <hex HMAC-SHA256 of every line before it>`. A report whose MAC does not verify
 * yields no outcomes. A test's worst outcome and its first failure text count: lines can only
 * be added to a report the MAC still verifies, never changed or dropped.
 */
function readPythonReport(
  text: string,
  keyHex: string,
  files: readonly string[],
): ReportContent {
  const tests = new Map<string, TestOutcome>();
  const failures = new Map<string, string>();
  const problems: IntegrityProblem[] = [];
  const observations = new Map<string, Observations>();
  const body = text.endsWith("\n") ? text.slice(0, -1) : "";
  const payload = body.slice(0, body.lastIndexOf("\n") + 1);
  const last = body.slice(payload.length);
  const mac = last.startsWith("M ") ? last.slice(2) : "";
  if (!verifyMac(keyHex, mac, payload)) {
    problems.push({
      code: "report_unverifiable",
      detail: "the test report is not signed by patchgym's reporter",
    });
    return { tests, failures, problems, observations };
  }
  for (const line of payload.split("\n")) {
    const [tag, a, b, c] = line.split(" ");
    if (tag === "O" && isOutcome(a) && b !== undefined) {
      const id = pythonTestId(fromHexText(b), files);
      tests.set(id, worst(tests.get(id), a));
    } else if (tag === "F" && a !== undefined && b !== undefined) {
      const id = pythonTestId(fromHexText(a), files);
      if (!failures.has(id)) failures.set(id, fromHexText(b));
    } else if (tag === "V" && a !== undefined && b !== undefined && c !== undefined) {
      let value: unknown = null;
      try {
        value = JSON.parse(fromHexText(c));
      } catch {
        // An unreadable value is opaque: it meets no expected value.
      }
      observationsOf(observations, pythonTestId(fromHexText(a), files)).observed.push({
        site: b,
        value,
      });
    } else if (tag === "E" && a !== undefined && b !== undefined) {
      observationsOf(observations, pythonTestId(fromHexText(a), files)).ends.push(b);
    } else if (tag === "P" && isIntegrityCode(a) && b !== undefined) {
      // The reporter writes a problem each time a check finds it (after every test): keep one.
      const detail = fromHexText(b);
      if (!problems.some((p) => p.code === a && p.detail === detail)) {
        problems.push({ code: a, detail });
      }
    }
  }
  if (problems.length > 0) {
    // Tampering makes every result an error, whatever the report says.
    for (const id of tests.keys()) tests.set(id, "error");
  }
  return { tests, failures, problems, observations };
}

function isOutcome(value: string | undefined): value is TestOutcome {
  return value === "passed" || value === "failed" || value === "error" || value === "skipped";
}

function isIntegrityCode(value: string | undefined): value is IntegrityCode {
  return (INTEGRITY_CODES as readonly (string | undefined)[]).includes(value);
}

/** Python test ids: pytest node ids as they are, unittest dotted ids mapped to files. */
function pythonTestId(id: string, files: readonly string[]): string {
  return id.includes("::") || id.endsWith(".py") ? id : pythonId(id, files);
}

/**
 * Whether `macHex` is the HMAC-SHA256 of `payload` under `keyHex`, compared in constant time.
 * `node:crypto` computes it synchronously: WebCrypto's `importKey` and `verify` are two
 * asynchronous round trips per report.
 */
function verifyMac(keyHex: string, macHex: string, payload: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(macHex)) return false;
  return timingSafeEqual(hmacSha256(fromHex(keyHex), payload), fromHex(macHex));
}

function fromHexText(hex: string): string {
  try {
    return decoder.decode(fromHex(hex));
  } catch {
    return "";
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) =>
    b.toString(16).padStart(2, "0")
  ).join("");
}

/** Lowercase hex to bytes; anything else throws. The built-in decoder: reports run to megabytes. */
function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  if (hex.length % 2 !== 0 || /[^0-9a-f]/.test(hex)) throw new Error("not hex");
  return Uint8Array.fromHex(hex);
}

/** `tests.test_x.Class.test_y` to `tests/test_x.py::Class::test_y`, using the known files. */
function pythonId(dotted: string, files: readonly string[]): string {
  for (const file of files) {
    const module = file.replace(/\.py$/, "").replaceAll("/", ".");
    if (dotted.startsWith(`${module}.`)) {
      return `${file}::${dotted.slice(module.length + 1).replaceAll(".", "::")}`;
    }
  }
  return dotted;
}

const SEVERITY: Record<TestOutcome, number> = { passed: 0, skipped: 1, failed: 2, error: 3 };

function worst(a: TestOutcome | undefined, b: TestOutcome): TestOutcome {
  return a === undefined || SEVERITY[b] > SEVERITY[a] ? b : a;
}
