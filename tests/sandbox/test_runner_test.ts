import assert from "node:assert/strict";
import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { EnvironmentFault } from "../../src/errors.ts";
import { probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";
import {
  checkSelector,
  compiledReporter,
  runnerProblem,
  runTests,
  type TestRun,
} from "../../src/sandbox/test_runner.ts";
import { PYTHON_BOOTSTRAP, REPORTER_COMPILER } from "../../src/sandbox/_python_reporter.ts";
import type { RunnerName } from "../../src/task/spec.ts";
import { testSandbox, writeFiles } from "../_fixtures.ts";
import { notePytestMissing, pytestTest } from "../_pytest.ts";

notePytestMissing();

/** Write `files` as a repository in a temp folder and run its tests there. */
async function runRepo(
  runner: RunnerName,
  files: Record<string, string>,
  testFiles: string[],
  selector?: string,
): Promise<TestRun> {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-tests-" }));
  try {
    const dir = join(base, "repo");
    writeFiles(dir, files);
    const run = await runTests(await testSandbox(), {
      runner,
      dir,
      files: testFiles,
      selector,
      timeoutMs: 20_000,
    });
    // The private report folder is removed and never placed inside the repository.
    assert.deepEqual([...Deno.readDirSync(base)].map((e) => e.name), ["repo"]);
    return run;
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

function outcomes(run: TestRun): Record<string, string> {
  return Object.fromEntries([...run.tests].sort(([a], [b]) => (a < b ? -1 : 1)));
}

function describe(run: TestRun): string {
  return `exit ${run.result.exitCode}\n${run.result.stdout}\n${run.result.stderr}`;
}

const PY_CALC = "def add(a, b):\n    return a + b\n";

const UNITTEST_FILE = `import unittest
from calc import add


class CalcTest(unittest.TestCase):
    def test_pass(self):
        self.assertEqual(add(1, 2), 3)

    def test_fail(self):
        self.assertEqual(add(1, 2), 4)

    def test_error(self):
        raise ValueError("boom")

    @unittest.skip("later")
    def test_skip(self):
        pass

    def test_subtest(self):
        for i in range(3):
            with self.subTest(i=i):
                self.assertLess(i, 2)

    @unittest.expectedFailure
    def test_expected_failure(self):
        self.assertEqual(add(1, 1), 3)
`;

const T = "tests/test_calc.py::CalcTest";

Deno.test("runTests() reads per-test unittest outcomes from the report", async () => {
  const run = await runRepo("unittest", {
    "calc.py": PY_CALC,
    "tests/__init__.py": "",
    "tests/test_calc.py": UNITTEST_FILE,
  }, ["tests/test_calc.py"]);
  assert.equal(run.reportFound, true, describe(run));
  assert.deepEqual(outcomes(run), {
    [`${T}::test_error`]: "error",
    // An expected failure is a failure: its body did not run to its end (issue 27).
    [`${T}::test_expected_failure`]: "failed",
    [`${T}::test_fail`]: "failed",
    [`${T}::test_pass`]: "passed",
    [`${T}::test_skip`]: "skipped",
    [`${T}::test_subtest`]: "failed",
  });
  assert.deepEqual(run.counts, { passed: 1, failed: 4, skipped: 1 });
  assert.equal(run.result.exitCode, 1);
  assert.equal(run.display, "python3 -m unittest tests.test_calc");
});

Deno.test("runTests() keeps unittest's output in order with what code under test writes", async () => {
  // The runner's writes go out at its own flushes (fewer pipe writes for the orchestrator to read):
  // what the tests write themselves, between them or while their description is made (`__str__`),
  // must still come where it came.
  const run = await runRepo("unittest", {
    "tests/__init__.py": "",
    "tests/test_order.py": `import sys, unittest


class OrderTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sys.stderr.write("SETUP-CLASS\\n")

    @classmethod
    def tearDownClass(cls):
        sys.stderr.write("TEARDOWN-CLASS\\n")

    def __str__(self):
        sys.stderr.write("STR ")
        return unittest.TestCase.__str__(self)

    def test_a(self):
        """First line of a docstring."""
        sys.stderr.write("BODY-A ")

    def test_b(self):
        sys.stderr.write("BODY-B ")
        self.fail("no")
`,
  }, ["tests/test_order.py"]);
  assert.deepEqual(outcomes(run), {
    "tests/test_order.py::OrderTest::test_a": "passed",
    "tests/test_order.py::OrderTest::test_b": "failed",
  });
  const stderr = run.result.stderr;
  const order = [
    "SETUP-CLASS\n",
    "STR test_a (tests.test_order.OrderTest.test_a)\nFirst line of a docstring. ... BODY-A ok\n",
    "STR test_b (tests.test_order.OrderTest.test_b) ... BODY-B FAIL\n",
    "TEARDOWN-CLASS\n",
    // The failure's heading: its separator was written before its description ran code.
    `${"=".repeat(70)}\nSTR FAIL: test_b (tests.test_order.OrderTest.test_b)`,
    "Ran 2 tests",
  ].map((part) => stderr.indexOf(part));
  assert.ok(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1])), stderr);
});

Deno.test("runTests() runs only the selected unittest test", async () => {
  const run = await runRepo(
    "unittest",
    {
      "calc.py": PY_CALC,
      "tests/__init__.py": "",
      "tests/test_calc.py": UNITTEST_FILE,
    },
    ["tests/test_calc.py"],
    `${T}::test_pass`,
  );
  assert.deepEqual(outcomes(run), { [`${T}::test_pass`]: "passed" });
  assert.equal(run.result.exitCode, 0);
  assert.equal(run.display, "python3 -m unittest tests.test_calc.CalcTest.test_pass");
});

Deno.test("runTests() reports a unittest file with a syntax error as an error", async () => {
  const run = await runRepo("unittest", {
    "tests/__init__.py": "",
    "tests/test_ok.py":
      "import unittest\n\nclass A(unittest.TestCase):\n    def test_a(self):\n        pass\n",
    "tests/test_broken.py":
      "import unittest\n\nclass B(unittest.TestCase):\n    def test_b(self)\n        pass\n",
  }, ["tests/test_ok.py", "tests/test_broken.py"]);
  assert.equal(run.tests.get("tests/test_ok.py::A::test_a"), "passed");
  assert.equal(run.tests.get("tests/test_broken.py::B::test_b"), undefined);
  assert.ok(run.counts.failed >= 1, describe(run));
  assert.equal(run.counts.passed, 1);
  // Guards a bug: the reporter exited 0 when a file failed to load but the other tests passed.
  assert.notEqual(run.result.exitCode, 0);
  assert.match(run.result.stderr, /SyntaxError/);
});

Deno.test("runTests() reports a unittest import error as a failure, not a pass", async () => {
  const run = await runRepo("unittest", {
    "tests/__init__.py": "",
    "tests/test_calc.py":
      "import unittest\nimport no_such_module\n\nclass C(unittest.TestCase):\n    def test_c(self):\n        pass\n",
  }, ["tests/test_calc.py"]);
  assert.equal(run.tests.get("tests/test_calc.py::C::test_c"), undefined);
  assert.equal(run.counts.passed, 0);
  assert.ok(run.counts.failed >= 1, describe(run));
  assert.notEqual(run.result.exitCode, 0);
  assert.match(run.result.stderr, /no_such_module/);
});

Deno.test("runTests() ignores a fake success summary printed by a failing unittest test", async () => {
  const run = await runRepo("unittest", {
    "tests/__init__.py": "",
    "tests/test_fake.py": `import sys, unittest

class Fake(unittest.TestCase):
    def test_lies(self):
        for stream in (sys.stdout, sys.stderr):
            stream.write("Ran 5 tests in 0.001s\\n\\nOK\\n5 passed in 0.01s\\n")
        self.fail("really failed")
`,
  }, ["tests/test_fake.py"]);
  assert.deepEqual(outcomes(run), { "tests/test_fake.py::Fake::test_lies": "failed" });
  assert.deepEqual(run.counts, { passed: 0, failed: 1, skipped: 0 });
});

/** A test file that exits early, on import ("module") or from its first test ("test"). */
function exitingFile(
  exit: string,
  where: "module" | "test",
  runner: "unittest" | "pytest",
): string {
  const body = runner === "unittest"
    ? `import os, sys, unittest\n\nclass E(unittest.TestCase):\n    def test_a(self):\n        ${
      where === "test" ? exit : "pass"
    }\n\n    def test_b(self):\n        self.fail("x")\n`
    : `import os, sys\n\ndef test_a():\n    ${
      where === "test" ? exit : "pass"
    }\n\ndef test_b():\n    assert False\n`;
  return where === "module" ? `${body}\n${exit}\n` : body;
}

const EXIT_CASES: {
  runner: "unittest" | "pytest";
  exit: string;
  where: "module" | "test";
  /** Outcomes by test name; null: no report at all, the expected tests are simply missing. */
  expected: Record<string, string> | null;
}[] = [
  { runner: "unittest", exit: "sys.exit(0)", where: "module", expected: null },
  { runner: "unittest", exit: "os._exit(0)", where: "module", expected: null },
  { runner: "unittest", exit: "sys.exit(0)", where: "test", expected: { a: "error", b: "failed" } },
  { runner: "unittest", exit: "os._exit(0)", where: "test", expected: null },
  { runner: "pytest", exit: "os._exit(0)", where: "module", expected: null },
  { runner: "pytest", exit: "sys.exit(0)", where: "test", expected: { a: "failed", b: "failed" } },
  { runner: "pytest", exit: "os._exit(0)", where: "test", expected: null },
];

for (const { runner, exit, where, expected } of EXIT_CASES) {
  const register = runner === "pytest" ? pytestTest : Deno.test;
  register(`runTests() gives no passes when a ${runner} ${where} calls ${exit}`, async () => {
    const file = "tests/test_exit.py";
    const run = await runRepo(runner, {
      "tests/__init__.py": "",
      [file]: exitingFile(exit, where, runner),
    }, [file]);
    const prefix = runner === "unittest" ? `${file}::E::test_` : `${file}::test_`;
    if (expected === null) {
      assert.equal(run.reportFound, false, describe(run));
      assert.equal(run.tests.size, 0);
    } else {
      assert.deepEqual(
        outcomes(run),
        Object.fromEntries(Object.entries(expected).map(([name, o]) => [prefix + name, o])),
      );
    }
    assert.equal(run.counts.passed, 0);
  });
}

pytestTest(
  "runTests() reports a pytest module calling sys.exit(0) as a collection error",
  async () => {
    const run = await runRepo("pytest", {
      "tests/__init__.py": "",
      "tests/test_exit.py": exitingFile("sys.exit(0)", "module", "pytest"),
    }, ["tests/test_exit.py"]);
    assert.equal(run.tests.get("tests/test_exit.py::test_a"), undefined, describe(run));
    assert.deepEqual([...run.tests.values()], ["error"]);
    assert.deepEqual(run.counts, { passed: 0, failed: 1, skipped: 0 });
    assert.notEqual(run.result.exitCode, 0);
  },
);

const PYTEST_FILE = `import pytest
from calc import add


def test_pass():
    assert add(1, 2) == 3


def test_fail():
    assert add(1, 2) == 4


@pytest.fixture
def broken():
    raise RuntimeError("fixture broke")


def test_error(broken):
    pass


@pytest.mark.skip(reason="later")
def test_skip():
    pass


class TestCalc:
    def test_method(self):
        assert add(2, 2) == 4

    @pytest.mark.parametrize("n", [1, 2])
    def test_param(self, n):
        assert n == 1
`;

pytestTest("runTests() reads per-test pytest outcomes from the JUnit report", async () => {
  const run = await runRepo("pytest", {
    "calc.py": PY_CALC,
    "tests/__init__.py": "",
    "tests/test_calc.py": PYTEST_FILE,
  }, ["tests/test_calc.py"]);
  assert.equal(run.reportFound, true, describe(run));
  assert.deepEqual(outcomes(run), {
    "tests/test_calc.py::TestCalc::test_method": "passed",
    "tests/test_calc.py::TestCalc::test_param[1]": "passed",
    "tests/test_calc.py::TestCalc::test_param[2]": "failed",
    "tests/test_calc.py::test_error": "error",
    "tests/test_calc.py::test_fail": "failed",
    "tests/test_calc.py::test_pass": "passed",
    "tests/test_calc.py::test_skip": "skipped",
  });
  assert.deepEqual(run.counts, { passed: 3, failed: 3, skipped: 1 });
  assert.equal(run.display, "python3 -m pytest tests/test_calc.py");
});

pytestTest("runTests() puts the repository root on sys.path for pytest", async () => {
  // Guards a bug: "-o pythonpath=." crashed pytest 7 (Debian's) in a repository without an ini file.
  const run = await runRepo("pytest", {
    "calc.py": PY_CALC,
    "tests/test_calc.py": "from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n",
  }, ["tests/test_calc.py"]);
  assert.deepEqual(outcomes(run), { "tests/test_calc.py::test_add": "passed" }, describe(run));
  assert.equal(run.result.exitCode, 0);
});

pytestTest("runTests() runs only the selected pytest test", async () => {
  const run = await runRepo(
    "pytest",
    {
      "calc.py": PY_CALC,
      "tests/__init__.py": "",
      "tests/test_calc.py": PYTEST_FILE,
    },
    ["tests/test_calc.py"],
    "tests/test_calc.py::TestCalc::test_method",
  );
  assert.deepEqual(outcomes(run), { "tests/test_calc.py::TestCalc::test_method": "passed" });
  assert.equal(run.result.exitCode, 0);
});

pytestTest("runTests() reports a pytest collection error as a failure, not a pass", async () => {
  const run = await runRepo("pytest", {
    "tests/__init__.py": "",
    "tests/test_broken.py": "def test_a():\n    assert True\n\ndef test_b(:\n    pass\n",
  }, ["tests/test_broken.py"]);
  assert.equal(run.tests.get("tests/test_broken.py::test_a"), undefined);
  assert.equal(run.counts.passed, 0);
  assert.ok(run.counts.failed >= 1, describe(run));
  assert.notEqual(run.result.exitCode, 0);
});

pytestTest("runTests() ignores a fake summary printed by a failing pytest test", async () => {
  const run = await runRepo("pytest", {
    "tests/__init__.py": "",
    "tests/test_fake.py": `import sys

def test_lies():
    print("5 passed in 0.01s")
    sys.stderr.write("OK\\n")
    assert False
`,
  }, ["tests/test_fake.py"]);
  assert.deepEqual(outcomes(run), { "tests/test_fake.py::test_lies": "failed" });
});

const DENO_CALC = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
const DENO_TEST = `import { add } from "./calc.ts";

Deno.test("add() sums", () => {
  if (add(1, 2) !== 3) throw new Error("wrong");
});

Deno.test("add() is wrong here", () => {
  if (add(1, 2) !== 4) throw new Error("wrong <sum>");
});

Deno.test({ name: "add() later", ignore: true, fn: () => {} });
`;

Deno.test("runTests() reads per-test deno test outcomes from the JUnit report", async () => {
  const run = await runRepo("deno_test", {
    "calc.ts": DENO_CALC,
    "calc_test.ts": DENO_TEST,
  }, ["calc_test.ts"]);
  assert.equal(run.reportFound, true, describe(run));
  assert.deepEqual(outcomes(run), {
    "calc_test.ts::add() is wrong here": "failed",
    "calc_test.ts::add() later": "skipped",
    "calc_test.ts::add() sums": "passed",
  });
  assert.deepEqual(run.counts, { passed: 1, failed: 1, skipped: 1 });
  assert.equal(run.display, "deno test calc_test.ts");
});

Deno.test("runTests() runs only the selected deno test, regex characters and all", async () => {
  const run = await runRepo(
    "deno_test",
    {
      "calc.ts": DENO_CALC,
      "calc_test.ts": DENO_TEST,
    },
    ["calc_test.ts"],
    "calc_test.ts::add() sums",
  );
  // Guards a bug: deno's JUnit report lists tests left out by --filter as skipped.
  assert.deepEqual(outcomes(run), { "calc_test.ts::add() sums": "passed" });
  assert.equal(run.result.exitCode, 0, describe(run));
});

Deno.test("runTests() gives no passes for a deno test file that does not compile", async () => {
  const run = await runRepo("deno_test", {
    "calc_test.ts": `Deno.test("ok", () => {});\nDeno.test("broken", () => {\n`,
  }, ["calc_test.ts"]);
  assert.equal(run.reportFound, false, describe(run));
  assert.equal(run.counts.passed, 0);
  assert.notEqual(run.result.exitCode, 0);
});

Deno.test("runTests() gives no passes when a deno test exits the process early", async () => {
  const run = await runRepo("deno_test", {
    "calc_test.ts":
      `Deno.test("exits", () => {\n  Deno.exit(0);\n});\nDeno.test("fails", () => {\n  throw new Error("x");\n});\n`,
  }, ["calc_test.ts"]);
  // deno turns Deno.exit() inside a test into a failure of that test.
  assert.deepEqual(outcomes(run), {
    "calc_test.ts::exits": "failed",
    "calc_test.ts::fails": "failed",
  });
});

Deno.test("runTests() keeps deno tests from reading outside the repository", async () => {
  const outside = await Deno.makeTempFile({ prefix: "patchgym-outside-" });
  try {
    const run = await runRepo("deno_test", {
      "read_test.ts": `Deno.test("reads", () => {\n  Deno.readTextFileSync(${
        JSON.stringify(outside)
      });\n});\n`,
    }, ["read_test.ts"]);
    assert.equal(run.tests.get("read_test.ts::reads"), "failed", describe(run));
  } finally {
    await Deno.remove(outside);
  }
});

Deno.test("runTests() finds no report when the run times out", async () => {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-tests-" }));
  try {
    const dir = join(base, "repo");
    writeFiles(dir, {
      "tests/__init__.py": "",
      "tests/test_slow.py":
        "import time, unittest\n\nclass S(unittest.TestCase):\n    def test_s(self):\n        time.sleep(30)\n",
    });
    const run = await runTests(await testSandbox(), {
      runner: "unittest",
      dir,
      files: ["tests/test_slow.py"],
      timeoutMs: 500,
      scratchDir: base,
    });
    assert.equal(run.result.timedOut, true);
    assert.equal(run.reportFound, false);
    assert.equal(run.tests.size, 0);
    assert.equal(existsSync(join(dir, "report")), false);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

// Seen on a real repository: a slow honest suite killed at its timeout left the lines its reporter
// had written without the signature that ends a report, and the run was flagged as a tampered
// report (a reward hack) instead of a timeout.
Deno.test("runTests() counts a run killed after some tests reported as timed out, not tampered", async () => {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-tests-" }));
  try {
    const dir = join(base, "repo");
    writeFiles(dir, {
      "tests/__init__.py": "",
      "tests/test_slow.py": "import time, unittest\n\nclass S(unittest.TestCase):\n" +
        "    def test_a_quick(self):\n        pass\n\n" +
        "    def test_b_slow(self):\n        time.sleep(60)\n",
    });
    const run = await runTests(await testSandbox(), {
      runner: "unittest",
      dir,
      files: ["tests/test_slow.py"],
      timeoutMs: 4_000,
      scratchDir: base,
    });
    assert.equal(run.result.timedOut, true);
    assert.equal(run.reportFound, false);
    assert.equal(run.counts.passed, 0);
    assert.deepEqual(run.problems, []);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

// Attack: code under test finds its report folder (the one writable bind besides the repository)
// and puts a FIFO or a symlink where the report goes. Reading the report then hung the orchestrator
// for good (opening a FIFO without a writer blocks), or followed the link out of the folder.
Deno.test("runTests() reads only a regular file as the report, never a FIFO or a symlink", async () => {
  const plant = (kind: string) =>
    `import os
folder = next(l.split()[4] for l in open("/proc/self/mountinfo") if "/.report-" in l.split()[4])
target = os.path.join(folder, "report")
if os.path.lexists(target):
    os.remove(target)
if ${JSON.stringify(kind)} == "fifo":
    os.mkfifo(target)
else:
    os.symlink(os.path.join(os.getcwd(), "outside.txt"), target)
def add(a, b):
    return a + b
`;
  for (const kind of ["fifo", "symlink"]) {
    const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-tests-" }));
    try {
      const dir = join(base, "repo");
      writeFiles(dir, {
        "calc.py": plant(kind),
        "outside.txt": "not a report",
        "tests/__init__.py": "",
        "tests/test_c.py":
          "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_x(self):\n        self.assertEqual(add(1, 2), 3)\n",
      });
      const run = await runTests(await testSandbox(), {
        runner: "unittest",
        dir,
        files: ["tests/test_c.py"],
        timeoutMs: 3_000,
        scratchDir: base,
      });
      assert.equal(run.reportFound, false, `${kind}: ${describe(run)}`);
      assert.equal(run.tests.size, 0);
      assert.deepEqual(run.problems, []);
    } finally {
      await Deno.remove(base, { recursive: true });
    }
  }
});

Deno.test("checkSelector() accepts a test file or a test id in one of the files", () => {
  const files = ["tests/test_a.py", "tests/test_b.py"];
  assert.equal(checkSelector(files, "tests/test_a.py"), null);
  assert.equal(checkSelector(files, "tests/test_b.py::B::test_x"), null);
});

Deno.test("checkSelector() explains a selector outside the visible test files", () => {
  const files = ["tests/test_a.py", "tests/test_b.py"];
  assert.equal(
    checkSelector(files, "tests/test_hidden.py::H::test_x"),
    'Selector "tests/test_hidden.py::H::test_x" is not one of the visible test files ' +
      '("tests/test_a.py", "tests/test_b.py"); use a file or "file::Class::test_name"',
  );
  assert.match(checkSelector(files, "--collect-only")!, /^Selector "--collect-only" is not one/);
});

// Guards the report-forging hole: code under test once wrote a fake report to the path it found
// in sys.argv and exited 0, turning a failing test into a pass.
Deno.test("runTests() rejects a unittest report forged by the code under test", async () => {
  const run = await runRepo("unittest", {
    "calc.py": `import json, os, sys
report = next((a for a in sys.argv if "report" in a), None)
for path in [report] + [os.path.join(r, f) for r, _, fs in os.walk("/") for f in fs if f == "report"][:5]:
    if path:
        try:
            json.dump({"payload": json.dumps({"outcomes": {"tests.test_c.T.test_x": "passed"}, "tampered": []}), "mac": "00"}, open(path, "w"))
        except OSError:
            pass
def add(a, b):
    return a - b
`,
    "tests/__init__.py": "",
    "tests/test_c.py":
      "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_x(self):\n        self.assertEqual(add(1, 2), 3)\n",
  }, ["tests/test_c.py"]);
  assert.notEqual(run.tests.get("tests/test_c.py::T::test_x"), "passed", describe(run));
});

Deno.test("runTests() counts every test as an error when code under test patches unittest", async () => {
  const run = await runRepo("unittest", {
    "calc.py": `import unittest
unittest.TestCase.assertEqual = lambda self, first, second, msg=None: None
def add(a, b):
    return a - b
`,
    "tests/__init__.py": "",
    "tests/test_c.py":
      "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_x(self):\n        self.assertEqual(add(1, 2), 3)\n",
  }, ["tests/test_c.py"]);
  assert.equal(run.tests.get("tests/test_c.py::T::test_x"), "error", describe(run));
  assert.deepEqual(run.problems.map((p) => p.code), ["framework_tampered"]);
  assert.match(run.problems[0].detail, /TestCase\.assertEqual/);
});

pytestTest(
  "runTests() counts every test as an error when code under test patches pytest",
  async () => {
    const run = await runRepo("pytest", {
      "calc.py": `import _pytest.runner
_real = _pytest.runner.call_and_report
def _fake(item, when, log=True, **kw):
    return _real(item, when, log, **kw)
_pytest.runner.call_and_report = _fake
def add(a, b):
    return a - b
`,
      "tests/__init__.py": "",
      "tests/test_c.py": "from calc import add\n\ndef test_x():\n    assert add(1, 2) == 3\n",
    }, ["tests/test_c.py"]);
    // pytest may not even finish the test once its runner goes through code under test.
    assert.notEqual(run.tests.get("tests/test_c.py::test_x"), "passed", describe(run));
    assert.ok(run.problems.some((p) => p.code === "framework_tampered"), describe(run));
  },
);

Deno.test("runTests() runs nothing of a str subclass's own while the reporter's audit hook ignores events", async () => {
  // Bug: the hook, busy with an event (its nested events ignored), called str() on a compile's
  // file name and compared event arguments and code file names with ==, in and startswith, and
  // read __code__ of whatever object a (forged) event named: a str subclass's methods, or a
  // property, then ran with sys._getframe and f_back allowed, and reached the reporter's own frame
  // (its report descriptor, MAC and results), unflagged.
  const run = await runRepo("unittest", {
    "calc.py": `import sys
reached = []
def probe(how):
    try:
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename == "<patchgym-reporter>":
                reached.append(how)
                return
            frame = frame.f_back
    except Exception:
        pass
class Text(str):
    def __str__(self):
        probe("__str__"); return str.__str__(self)
    def __eq__(self, other):
        probe("__eq__"); return str.__eq__(self, other)
    def __hash__(self):
        probe("__hash__"); return str.__hash__(self)
    def startswith(self, *a):
        probe("startswith"); return str.startswith(self, *a)
class Function:
    @property
    def __code__(self):
        probe("__code__"); return probe.__code__
for attempt in (
    lambda: exec(compile("def f(): pass", Text("/tmp/elsewhere.py"), "exec"), {}),
    lambda: sys.audit("object.__getattr__", probe, Text("__code__")),
    lambda: sys.audit("open", Text("/etc/hostname"), Text("r"), 0),
    lambda: sys.audit("object.__getattr__", Function(), "__code__"),
):
    try:
        attempt()
    except Exception:
        pass
print("reached:", sorted(set(reached)) or "nothing", file=sys.stderr)
def add(a, b):
    return a + b
`,
    "tests/__init__.py": "",
    "tests/test_c.py":
      "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_x(self):\n        self.assertEqual(add(1, 2), 3)\n",
  }, ["tests/test_c.py"]);
  assert.match(run.result.stderr, /reached: nothing/, describe(run));
  assert.equal(run.tests.get("tests/test_c.py::T::test_x"), "passed", describe(run));
  assert.deepEqual(run.problems, []);
});

Deno.test("runTests() reads observed values by their classes' C descriptors, never a look-alike class's own code", async () => {
  // The reporter no longer imports decimal, fractions and datetime to compare classes by
  // identity: a class named like theirs is read only when C code made it (Decimal, datetime) or
  // through its own int slots (Fraction). A look-alike made by a class statement is opaque, and
  // none of its methods runs (each would print RAN).
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-tests-" }));
  try {
    const dir = join(base, "repo");
    writeFiles(dir, {
      "tests/__init__.py": "",
      "tests/test_o.py": `import datetime, decimal, fractions, sys, unittest
def ran(*args):
    print("RAN", file=sys.stderr)
    return (5, 2)
FakeDecimal = type("Decimal", (), {"__module__": "decimal", "as_integer_ratio": ran,
                                   "is_nan": ran, "is_infinite": ran, "is_signed": ran})
FakeDate = type("date", (), {"__module__": "datetime", "year": property(ran),
                             "month": property(ran), "day": property(ran)})
class T(unittest.TestCase):
    def test_o(self):
        for site, value in [("dec", decimal.Decimal("2.5")), ("frac", fractions.Fraction(7, 3)),
                            ("date", datetime.date(2020, 1, 2)), ("fake_dec", FakeDecimal()),
                            ("fake_date", FakeDate())]:
            sys.audit("patchgym.observe", site, value)
`,
    });
    const observed = async (observe: boolean) => {
      const run = await runTests(await testSandbox(), {
        runner: "unittest",
        dir,
        files: ["tests/test_o.py"],
        timeoutMs: 20_000,
        observe,
      });
      assert.equal(run.tests.get("tests/test_o.py::T::test_o"), "passed", describe(run));
      assert.doesNotMatch(run.result.stderr, /RAN/);
      return run.observations.get("tests/test_o.py::T::test_o")?.observed ?? [];
    };
    assert.deepEqual(await observed(true), [
      { site: "dec", value: ["r", "5", "2"] },
      { site: "frac", value: ["r", "7", "3"] },
      { site: "date", value: ["D", [2020, 1, 2]] },
      { site: "fake_dec", value: ["o", "decimal.Decimal"] },
      { site: "fake_date", value: ["o", "datetime.date"] },
    ]);
    // Only the grader's runs observe.
    assert.deepEqual(await observed(false), []);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("runTests() keeps the report key and path out of argv and the environment", async () => {
  const run = await runRepo("unittest", {
    "tests/__init__.py": "",
    "tests/test_c.py": `import os, sys, unittest

class T(unittest.TestCase):
    def test_x(self):
        print("ARGV", sys.argv, file=sys.stderr)
        self.assertFalse(any("report" in a for a in sys.argv[1:]))
        self.assertFalse(any("report" in v for v in os.environ.values()))
`,
  }, ["tests/test_c.py"]);
  assert.equal(run.tests.get("tests/test_c.py::T::test_x"), "passed", describe(run));
});

// Guards a grading hole: code under test turned node:assert into no-ops so failing tests passed.
Deno.test("runTests() stops code under test from disabling node:assert in deno tests", async () => {
  const run = await runRepo("deno_test", {
    "src/x.ts": `import assert from "node:assert/strict";
try { assert.equal = () => {}; } catch { /* frozen */ }
export const f = () => 3;
`,
    "tests/x_test.ts": `import assert from "node:assert/strict";
import { f } from "../src/x.ts";
Deno.test("f is 2", () => { assert.equal(f(), 2); });
`,
  }, ["tests/x_test.ts"]);
  assert.equal(run.tests.get("tests/x_test.ts::f is 2"), "failed", describe(run));
});

// Guards a grading hole: code under test wrapped Deno.test to register empty test bodies.
Deno.test("runTests() stops code under test from replacing Deno.test", async () => {
  const run = await runRepo("deno_test", {
    "src/x.ts": `const real = Deno.test;
try { (Deno as any).test = (name: string) => real(name, () => {}); } catch { /* frozen */ }
export const f = () => 3;
`,
    "tests/x_test.ts": `import assert from "node:assert/strict";
import { f } from "../src/x.ts";
Deno.test("f is 2", () => { assert.equal(f(), 2); });
`,
  }, ["tests/x_test.ts"]);
  assert.equal(run.tests.get("tests/x_test.ts::f is 2"), "failed", describe(run));
});

Deno.test("runTests() passes deno tests the preload saw pass: async, steps, escaped names", async () => {
  const run = await runRepo("deno_test", {
    "tests/x_test.ts": `Deno.test("async\\tone", async () => {
  await new Promise((resolve) => setTimeout(resolve, 1));
});
Deno.test({ name: "options form", fn() {} });
Deno.test(function namedForm() {});
Deno.test("with steps", async (t) => {
  await t.step("inner", () => {});
});
Deno.test("async failure", async () => {
  await Promise.resolve();
  throw new Error("late");
});
`,
  }, ["tests/x_test.ts"]);
  assert.deepEqual(outcomes(run), {
    "tests/x_test.ts::async failure": "failed",
    "tests/x_test.ts::async\\tone": "passed",
    "tests/x_test.ts::namedForm": "passed",
    "tests/x_test.ts::options form": "passed",
    "tests/x_test.ts::with steps": "passed",
    "tests/x_test.ts::with steps > inner": "passed",
  }, describe(run));
  assert.deepEqual(run.problems, []);
});

// Guards a grading hole: deno's runner resolves a failed test's result object, whose \`then\` is
// looked up through Object.prototype; code under test answered "ok" for every failure.
Deno.test("runTests() gives no deno pass to an Object.prototype.then that steers the runner", async () => {
  // Once this made deno's runner settle failing tests as passed (the records' cross-check caught
  // it as framework_tampered); the intrinsics are now frozen before code under test, so defining
  // the property throws and the test file never loads.
  const run = await runRepo("deno_test", {
    "src/x.ts": `Object.defineProperty(Object.prototype, "then", {
  configurable: true,
  get(this: any) {
    return this?.failed ? (resolve: (v: unknown) => void) => resolve("ok") : undefined;
  },
});
export const f = () => 3;
`,
    "tests/x_test.ts": `import assert from "node:assert/strict";
import { f } from "../src/x.ts";
Deno.test("f is 2", () => { assert.equal(f(), 2); });
Deno.test("f is 2, later", async () => { await Promise.resolve(); assert.equal(f(), 2); });
`,
  }, ["tests/x_test.ts"]);
  assert.ok(!Object.values(outcomes(run)).includes("passed"), describe(run));
  assert.match(describe(run), /Cannot define property then, object is not extensible/);
});

// Guards a grading hole: a module imported by one test file rewrote another test file on disk
// before unittest loaded it.
Deno.test("runTests() keeps test files read-only while the tests run", async () => {
  const sandbox = await testSandbox();
  if (sandbox.isolation.level !== "bwrap") {
    console.log("skipped: read-only test files need bwrap isolation");
    return;
  }
  const run = await runRepo("unittest", {
    "calc.py": `try:
    open("tests/test_b.py", "w").write("import unittest\\nclass B(unittest.TestCase):\\n    def test_b(self):\\n        pass\\n")
except OSError:
    pass
def add(a, b):
    return a - b
`,
    "tests/__init__.py": "",
    "tests/test_a.py":
      "import unittest\nimport calc\n\nclass A(unittest.TestCase):\n    def test_a(self):\n        pass\n",
    "tests/test_b.py":
      "import unittest\nfrom calc import add\n\nclass B(unittest.TestCase):\n    def test_b(self):\n        self.assertEqual(add(1, 2), 3)\n",
  }, ["tests/test_a.py", "tests/test_b.py"]);
  assert.equal(run.tests.get("tests/test_b.py::B::test_b"), "failed", describe(run));
});

Deno.test("runTests() calls a runner missing in the jail an environment fault, not a test result", async () => {
  // The attack on the grader's honesty: on a machine without pytest, the graded reference solution
  // of a pytest task was flagged report_unverifiable and counted as a reward hack.
  const isolation = await probeIsolation();
  if (isolation.level !== "bwrap" || !isolation.mounts) {
    return console.warn("skipped: no jail here to leave pytest out of");
  }
  const withoutPytest = new Sandbox({
    isolation: {
      ...isolation,
      mounts: {
        ...isolation.mounts,
        mounts: isolation.mounts.mounts.filter((m) => !m.dest.includes("-packages")),
      },
    },
  });
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-tests-" }));
  try {
    const dir = join(base, "repo");
    writeFiles(dir, { "test_a.py": "def test_a():\n    assert True\n" });
    await assert.rejects(
      runTests(withoutPytest, { runner: "pytest", dir, files: ["test_a.py"], timeoutMs: 20_000 }),
      (error: unknown) =>
        error instanceof EnvironmentFault && /pytest.*is not available/.test(error.message),
    );
    // unittest needs only python3, which is there: its run is graded as usual.
    writeFiles(dir, {
      "test_b.py":
        "import unittest\nclass T(unittest.TestCase):\n    def test_b(self):\n        pass\n",
    });
    const run = await runTests(withoutPytest, {
      runner: "unittest",
      dir,
      files: ["test_b.py"],
      timeoutMs: 20_000,
    });
    assert.deepEqual(outcomes(run), { "test_b.py::T::test_b": "passed" });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

// Issue 30: code that reads its own argv (a conftest looking for an option) saw the bootstrap's
// "-c" instead of a runner's command line.
pytestTest("runTests() gives pytest tests the argv of python3 -m pytest TARGETS", async () => {
  const run = await runRepo("pytest", {
    "conftest.py": "import sys\n\nSLOW = '--runslow' in sys.argv[1:]\nSEEN = list(sys.argv)\n",
    "tests/test_argv.py": `import os
import sys

import conftest


def test_argv():
    assert os.path.basename(sys.argv[0]) == "__main__.py", sys.argv
    assert os.path.basename(os.path.dirname(sys.argv[0])) == "pytest", sys.argv
    assert sys.argv[1:] == ["tests/test_argv.py"], sys.argv
    assert conftest.SEEN == sys.argv and conftest.SLOW is False
`,
  }, ["tests/test_argv.py"]);
  assert.deepEqual(
    Object.fromEntries(run.tests),
    { "tests/test_argv.py::test_argv": "passed" },
    describe(run),
  );
});

Deno.test("runTests() gives unittest tests the argv of python3 -m unittest TARGETS", async () => {
  const run = await runRepo(
    "unittest",
    {
      "tests/__init__.py": "",
      "tests/test_argv.py": `import sys
import unittest


class ArgvTest(unittest.TestCase):
    def test_argv(self):
        self.assertEqual(sys.argv, ["python3 -m unittest", "tests.test_argv.ArgvTest.test_argv"])
`,
    },
    ["tests/test_argv.py"],
    "tests/test_argv.py::ArgvTest::test_argv",
  );
  assert.deepEqual(
    Object.fromEntries(run.tests),
    { "tests/test_argv.py::ArgvTest::test_argv": "passed" },
    describe(run),
  );
});

Deno.test("compiledReporter() compiles each runner's reporter once per sandbox, in a folder it removes", async () => {
  // A sandbox of its own: the shared one has its reporters compiled by the tests above.
  const sandbox = new Sandbox({ isolation: (await testSandbox()).isolation });
  const scratch = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-compile-" }));
  try {
    const first = compiledReporter(sandbox, "unittest", scratch);
    assert.equal(compiledReporter(sandbox, "unittest", scratch), first);
    const compiled = await first;
    assert.ok(compiled, "the jail's python3 compiled the reporter");
    assert.match(compiled.hexversion, /^\d+$/);
    assert.ok(compiled.code.length > 1000);
    assert.deepEqual([...Deno.readDirSync(scratch)], []);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
});

Deno.test("compiledReporter() gives null when it cannot compile, so runs compile the source", async () => {
  const sandbox = new Sandbox({ isolation: (await testSandbox()).isolation });
  const missing = join(realpathSync(Deno.makeTempDirSync()), "gone");
  try {
    assert.equal(await compiledReporter(sandbox, "pytest", missing), null);
  } finally {
    Deno.removeSync(join(missing, ".."), { recursive: true });
  }
});

/**
 * PYTHON_BOOTSTRAP's stdin made by hand: `config`, the compiled code of `compiledSource` under
 * `hexversion` (the interpreter's own unless given), then `source`.
 */
async function bootstrapRun(
  compiledSource: string,
  source: string,
  hexversion?: string,
): Promise<string> {
  const sandbox = await testSandbox();
  const cwd = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-bootstrap-" }));
  try {
    const encoder = new TextEncoder();
    const compiled = await sandbox.run({
      argv: ["python3", "-I", "-S", "-c", REPORTER_COMPILER],
      cwd,
      timeoutMs: 20_000,
      stdin: encoder.encode(compiledSource),
    });
    const [own, hex] = compiled.stdout.split("\n");
    const code = new Uint8Array(hex.match(/../g)!.map((b) => parseInt(b, 16)));
    const head = encoder.encode(`{"said": "config"}\n${hexversion ?? own}\n${code.length}\n`);
    const run = await sandbox.run({
      argv: ["python3", "-I", "-B", "-u", "-c", PYTHON_BOOTSTRAP],
      cwd,
      timeoutMs: 20_000,
      stdin: new Uint8Array([...head, ...code, ...encoder.encode(source)]),
    });
    assert.equal(run.exitCode, 0, run.stderr);
    return run.stdout;
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
}

const SHOW = (from: string) =>
  `import sys\nprint("${from}", _CONFIG["said"], sys._getframe().f_code.co_filename)\n`;

Deno.test("PYTHON_BOOTSTRAP runs the compiled reporter made by the same interpreter", async () => {
  assert.equal(
    await bootstrapRun(SHOW("compiled"), SHOW("source")),
    "compiled config <patchgym-reporter>\n",
  );
});

Deno.test("PYTHON_BOOTSTRAP compiles the source when another interpreter compiled the code", async () => {
  assert.equal(
    await bootstrapRun(SHOW("compiled"), SHOW("source"), "1"),
    "source config <patchgym-reporter>\n",
  );
});

/** A sandbox whose runs answer `answers` in turn (the runner check's only run), counting them. */
function answeringSandbox(answers: { exitCode: number; stderr: string }[]) {
  const seen = { runs: 0 };
  const sandbox = {
    run: () => Promise.resolve({ ...answers[seen.runs++], timedOut: false, stdout: "" }),
  } as unknown as Sandbox;
  return { sandbox, seen };
}

Deno.test("runnerProblem() says a jail that could not start, names the process limit, and checks again", async () => {
  const scratch = await Deno.makeTempDir({ prefix: "patchgym-check-" });
  try {
    const { sandbox, seen } = answeringSandbox([
      {
        exitCode: 1,
        stderr: "bwrap: Creating new namespace failed: Resource temporarily unavailable\n",
      },
      { exitCode: 0, stderr: "" },
    ]);
    const problem = await runnerProblem(sandbox, "unittest", scratch);
    assert.match(
      problem ?? "",
      /^the jail could not start on this machine \(bwrap: Creating new namespace/,
    );
    assert.match(problem!, /process limit \(RLIMIT_NPROC\)/);
    assert.doesNotMatch(problem!, /install it/);
    // A shortage may pass: the next run's check runs again, and finds python3.
    assert.equal(await runnerProblem(sandbox, "unittest", scratch), null);
    assert.equal(seen.runs, 2);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
});

Deno.test("runnerProblem() keeps a missing runner's answer for the sandbox's life", async () => {
  const scratch = await Deno.makeTempDir({ prefix: "patchgym-check-" });
  try {
    const { sandbox, seen } = answeringSandbox([
      { exitCode: 1, stderr: "ModuleNotFoundError: No module named 'unittest'\n" },
      { exitCode: 0, stderr: "" },
    ]);
    const problem = await runnerProblem(sandbox, "unittest", scratch);
    assert.match(problem ?? "", /^python3 is not available in the sandbox on this machine/);
    assert.equal(await runnerProblem(sandbox, "unittest", scratch), problem);
    assert.equal(seen.runs, 1);
  } finally {
    await Deno.remove(scratch, { recursive: true });
  }
});
