/**
 * Running a task's tests through the sandbox and reading per-test outcomes from a
 * machine-readable report written outside the workspace: JUnit from `deno test` and pytest, a
 * small JSON results writer for `unittest`. Text the code under test prints is never parsed.
 */
import { dirname } from "node:path";
import type { RunnerName } from "../task/spec.ts";
import { parseJunit, type TestOutcome } from "./junit.ts";
import type { Runner, RunResult } from "./runner.ts";

/** What to run. */
export interface TestRunRequest {
  runner: RunnerName;
  /** The repository copy to test (cwd of the child). */
  dir: string;
  /** Test files relative to `dir`. */
  files: string[];
  /** Optional narrowing: a file from `files` or a test id (`file::Class::name`). */
  selector?: string;
  timeoutMs: number;
  /** Folder in which the private report folder is made; defaults to the parent of `dir`. */
  scratchDir?: string;
  maxOutputBytes?: number;
}

/** Outcome of a test run. */
export interface TestRun {
  result: RunResult;
  /** Per-test outcomes by id, from the report; empty when no report was written. */
  tests: Map<string, TestOutcome>;
  counts: { passed: number; failed: number; skipped: number };
  /** Whether the runner wrote a report at all (no report: it crashed, timed out or was killed). */
  reportFound: boolean;
  /** The command as a person would type it (for the model's benefit). */
  display: string;
}

/** A selector that does not name one of the test files or a test in them. */
export function checkSelector(files: string[], selector: string): string | null {
  const file = selector.split("::")[0];
  if (files.includes(file)) return null;
  return `Selector "${selector}" is not one of the visible test files (${
    files.map((f) => `"${f}"`).join(", ")
  }); use a file or "file::Class::test_name"`;
}

/** Whether `selector` (a file or a test id) selects the test `id`. */
function selects(selector: string, id: string): boolean {
  return id === selector || id.startsWith(`${selector}::`);
}

/** Run tests in the sandbox and read the report. */
export async function runTests(sandbox: Runner, request: TestRunRequest): Promise<TestRun> {
  const scratch = request.scratchDir ?? dirname(request.dir);
  const reportDir = await Deno.makeTempDir({ dir: scratch, prefix: ".report-" });
  try {
    const reportPath = `${reportDir}/report`;
    const targets = request.selector ? [request.selector] : request.files;
    const argv = commandFor(request.runner, request.dir, targets, reportPath);
    const result = await sandbox.run({
      argv,
      cwd: request.dir,
      timeoutMs: request.timeoutMs,
      writable: [reportDir],
      maxOutputBytes: request.maxOutputBytes,
    });
    let report: string | null = null;
    try {
      report = await Deno.readTextFile(reportPath);
    } catch {
      report = null;
    }
    const tests = report === null ? new Map() : readReport(request.runner, report, request.files);
    if (request.selector) {
      // deno test lists tests its --filter left out as skipped; they were not selected, so drop them.
      for (const id of [...tests.keys()]) if (!selects(request.selector, id)) tests.delete(id);
    }
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const outcome of tests.values()) {
      if (outcome === "passed") counts.passed++;
      else if (outcome === "skipped") counts.skipped++;
      else counts.failed++;
    }
    return {
      result,
      tests,
      counts,
      reportFound: report !== null,
      display: testCommandLine(request.runner, targets),
    };
  } finally {
    await Deno.remove(reportDir, { recursive: true });
  }
}

function commandFor(runner: RunnerName, dir: string, targets: string[], report: string): string[] {
  switch (runner) {
    case "unittest":
      return ["python3", "-I", "-B", "-u", "-c", UNITTEST_REPORTER, report, ...targets];
    case "pytest":
      return [
        "python3",
        "-I",
        "-B",
        "-u",
        "-c",
        PYTEST_MAIN,
        "-q",
        "-p",
        "no:cacheprovider",
        `--junitxml=${report}`,
        "-o",
        "junit_family=xunit1",
        ...targets,
      ];
    case "deno_test": {
      const files = [...new Set(targets.map((t) => t.split("::")[0]))];
      const names = targets.filter((t) => t.includes("::")).map((t) =>
        t.split("::").slice(1).join("::")
      );
      const filter = names.length > 0
        ? [`--filter=/^(${names.map(escapeRegExp).join("|")})$/`]
        : [];
      return [
        "deno",
        "test",
        "--no-config",
        "--no-lock",
        "--no-check",
        "--cached-only",
        "--no-prompt",
        `--allow-read=${dir}`,
        `--allow-write=${dir}`,
        "--v8-flags=--max-old-space-size=512",
        `--junit-path=${report}`,
        ...filter,
        ...files,
      ];
    }
  }
}

/** The test command as a person would type it, shown to the model. */
export function testCommandLine(runner: RunnerName, targets: string[]): string {
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
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** Map a report to test ids (`file::Class::name` or `file::name`). */
function readReport(runner: RunnerName, report: string, files: string[]): Map<string, TestOutcome> {
  const tests = new Map<string, TestOutcome>();
  if (runner === "unittest") {
    let parsed: Record<string, TestOutcome>;
    try {
      parsed = JSON.parse(report);
    } catch {
      return tests;
    }
    for (const [id, outcome] of Object.entries(parsed)) tests.set(pythonId(id, files), outcome);
    return tests;
  }
  for (const testcase of parseJunit(report)) {
    const id = runner === "deno_test"
      ? `${testcase.classname.replace(/^\.\//, "")}::${testcase.name}`
      : pythonId(`${testcase.classname}.${testcase.name}`, files);
    tests.set(id, worst(tests.get(id), testcase.outcome));
  }
  return tests;
}

/** `tests.test_x.Class.test_y` to `tests/test_x.py::Class::test_y`, using the known files. */
function pythonId(dotted: string, files: string[]): string {
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

/**
 * `python3 -m pytest` with the repository root on sys.path, which `-I` leaves off. (`-o
 * pythonpath=.` would do it, but pytest 7 fails an assertion when the repository has no ini file.)
 */
const PYTEST_MAIN =
  "import os, sys; sys.path.insert(0, os.getcwd()); import pytest; sys.exit(pytest.main())";

/**
 * Runs unittest targets (`path.py` or `path.py::Class::test`) and writes `{test_id: outcome}`
 * JSON to argv[1]. Subtest failures fail their test; import errors are printed and recorded.
 */
const UNITTEST_REPORTER = String.raw`
import json, os, sys, unittest
report, targets = sys.argv[1], sys.argv[2:]
sys.path.insert(0, os.getcwd())
outcomes = {}
def record(test, outcome):
    tid = test.id() if hasattr(test, "id") else str(test)
    order = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}
    if order[outcome] >= order.get(outcomes.get(tid, "passed"), 0):
        outcomes[tid] = outcome
class Result(unittest.TextTestResult):
    def addSuccess(self, test):
        super().addSuccess(test); record(test, "passed")
    def addFailure(self, test, err):
        super().addFailure(test, err); record(test, "failed")
    def addError(self, test, err):
        super().addError(test, err); record(test, "error")
    def addSkip(self, test, reason):
        super().addSkip(test, reason); record(test, "skipped")
    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err); record(test, "passed")
    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test); record(test, "failed")
    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            record(test, "failed" if issubclass(err[0], test.failureException) else "error")
suite = unittest.TestSuite()
loader = unittest.TestLoader()
load_failed = False
for target in targets:
    path, _, rest = target.partition("::")
    name = path[:-3].replace("/", ".") + ("." + rest.replace("::", ".") if rest else "")
    try:
        suite.addTests(loader.loadTestsFromName(name))
    except Exception as exc:
        print(f"Cannot load {target}: {type(exc).__name__}: {exc}", file=sys.stderr)
        outcomes[target] = "error"
        load_failed = True
for error in loader.errors:
    print(error, file=sys.stderr)
result = unittest.TextTestRunner(stream=sys.stderr, verbosity=2, resultclass=Result).run(suite)
with open(report, "w") as f:
    json.dump(outcomes, f)
sys.exit(0 if result.wasSuccessful() and not loader.errors and not load_failed else 1)
`;
