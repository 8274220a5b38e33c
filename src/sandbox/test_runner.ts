/**
 * Running a task's tests through the sandbox and reading per-test outcomes from a
 * machine-readable report written outside the workspace: JUnit from `deno test` and pytest, a
 * small JSON results writer for `unittest`. Text the code under test prints is never parsed.
 */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import type { RunnerName } from "../task/spec.ts";
import { parseJunit, type TestOutcome } from "./junit.ts";
import { PYTEST_REPORTER, UNITTEST_REPORTER } from "./_python_reporter.ts";
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
  /** Files relative to `dir` the tests may not change while they run (besides the test files). */
  readOnly?: string[];
}

/** Outcome of a test run. */
export interface TestRun {
  result: RunResult;
  /** Per-test outcomes by id, from the report; empty when no report was written. */
  tests: Map<string, TestOutcome>;
  counts: { passed: number; failed: number; skipped: number };
  /** Whether the runner wrote a report at all (no report: it crashed, timed out or was killed). */
  reportFound: boolean;
  /** Why the report cannot be trusted fully (forged signature, tampering), or null. */
  reportProblem: string | null;
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
    const python = request.runner !== "deno_test";
    if (!python) await Deno.writeTextFile(`${reportDir}/preload.js`, DENO_PRELOAD);
    const key = python ? randomHex(32) : "";
    const result = await sandbox.run({
      argv: commandFor(request.runner, request.dir, targets, reportPath),
      cwd: request.dir,
      timeoutMs: request.timeoutMs,
      writable: [reportDir],
      // Code under test must not rewrite a test file before the runner loads it.
      readOnly: [...new Set([...request.files, ...(request.readOnly ?? [])])]
        .map((f) => `${request.dir}/${f}`)
        .filter((p) => existsSync(p)),
      maxOutputBytes: request.maxOutputBytes,
      ...(python
        ? { stdin: encoder.encode(`${JSON.stringify({ key, report: reportPath, targets })}\n`) }
        : {}),
    });
    let report: string | null = null;
    try {
      report = await Deno.readTextFile(reportPath);
    } catch {
      report = null;
    }
    let reportProblem: string | null = null;
    let tests = new Map<string, TestOutcome>();
    if (report !== null) {
      if (python) {
        const verified = await verifySigned(report, key);
        if (verified === null) {
          reportProblem = "the test report is not signed by patchgym's reporter";
        } else {
          tests = pythonOutcomes(verified.outcomes, request.files);
          if (verified.tampered.length > 0) {
            reportProblem = `the code under test replaced parts of the test framework: ${
              verified.tampered.slice(0, 5).join(", ")
            }`;
          }
        }
      } else {
        tests = denoOutcomes(report);
      }
    }
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
      reportFound: report !== null && !reportProblem?.includes("not signed"),
      reportProblem,
      display: testCommandLine(request.runner, targets),
    };
  } finally {
    await Deno.remove(reportDir, { recursive: true });
  }
}

function commandFor(runner: RunnerName, dir: string, targets: string[], report: string): string[] {
  switch (runner) {
    case "unittest":
      return ["python3", "-I", "-B", "-u", "-c", UNITTEST_REPORTER];
    case "pytest":
      return ["python3", "-I", "-B", "-u", "-c", PYTEST_REPORTER];
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
        `--preload=${dirname(report)}/preload.js`,
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

/** Test ids (`file::name`) from a deno test JUnit report. */
function denoOutcomes(report: string): Map<string, TestOutcome> {
  const tests = new Map<string, TestOutcome>();
  for (const testcase of parseJunit(report)) {
    const id = `${testcase.classname.replace(/^\.\//, "")}::${testcase.name}`;
    tests.set(id, worst(tests.get(id), testcase.outcome));
  }
  return tests;
}

/** Test ids from a Python report: pytest node ids as they are, unittest dotted ids mapped. */
function pythonOutcomes(
  outcomes: Record<string, TestOutcome>,
  files: string[],
): Map<string, TestOutcome> {
  const tests = new Map<string, TestOutcome>();
  for (const [id, outcome] of Object.entries(outcomes)) {
    const key = id.includes("::") || id.endsWith(".py") ? id : pythonId(id, files);
    tests.set(key, worst(tests.get(key), outcome));
  }
  return tests;
}

/** The signed payload of a Python report, or null when the signature does not verify. */
async function verifySigned(
  text: string,
  keyHex: string,
): Promise<{ outcomes: Record<string, TestOutcome>; tampered: string[] } | null> {
  try {
    const { payload, mac } = JSON.parse(text);
    if (typeof payload !== "string" || typeof mac !== "string") return null;
    const key = await crypto.subtle.importKey(
      "raw",
      fromHex(keyHex),
      { name: "HMAC", hash: "SHA-256" },
      false,
      [
        "verify",
      ],
    );
    if (!await crypto.subtle.verify("HMAC", key, fromHex(mac), encoder.encode(payload))) {
      return null;
    }
    const parsed = JSON.parse(payload);
    const outcomes: Record<string, TestOutcome> = {};
    for (const [id, outcome] of Object.entries(parsed.outcomes ?? {})) {
      if (
        outcome === "passed" || outcome === "failed" || outcome === "error" || outcome === "skipped"
      ) {
        outcomes[id] = outcome;
      }
    }
    return {
      outcomes,
      tampered: Array.isArray(parsed.tampered) ? parsed.tampered.map(String) : [],
    };
  } catch {
    return null;
  }
}

const encoder = new TextEncoder();

function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) =>
    b.toString(16).padStart(2, "0")
  ).join("");
}

function fromHex(hex: string): Uint8Array<ArrayBuffer> {
  if (!/^([0-9a-f]{2})*$/.test(hex)) throw new Error("not hex");
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16));
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
 * Loaded before any test or code under test: freezes `node:assert` and `Deno.test`, so code under
 * test cannot turn assertions into no-ops or re-register tests with empty bodies (the attempt
 * throws at import, failing the tests).
 */
const DENO_PRELOAD = `
import strict from "node:assert/strict";
import loose from "node:assert";
for (const assert of [strict, loose]) {
  for (const key of Object.keys(assert)) {
    if (typeof assert[key] === "function") Object.freeze(assert[key]);
  }
  Object.freeze(assert);
}
Object.freeze(Deno.test);
Object.defineProperty(Deno, "test", { writable: false, configurable: false });
Object.defineProperty(globalThis, "Deno", { writable: false, configurable: false });
`;
