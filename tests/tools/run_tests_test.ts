import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { executeTool } from "../../src/tools/registry.ts";
import { runCommandTool } from "../../src/tools/run_command.ts";
import { runTestsTool } from "../../src/tools/run_tests.ts";
import { withContext } from "../_fixtures.ts";
import { call, failMessage, okOutput } from "./_call.ts";
import { pytestTest } from "../_pytest.ts";

const PASSING = `import unittest
from src.calc import add

class T(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(1, 2), 3)

    def test_zero(self):
        self.assertEqual(add(0, 0), 0)
`;

const MIXED = `import unittest
from src.calc import add

class T(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(1, 2), 3)

    def test_neg(self):
        self.assertEqual(add(-1, -1), -2)

    @unittest.skip("not yet")
    def test_later(self):
        pass
`;

const CALC = "def add(a, b):\n    return a + b if a >= 0 else a - b\n";

Deno.test("runTestsTool.run() runs the visible unittest tests and counts passes", async () => {
  await withContext({ "src/calc.py": CALC, "tests/test_a.py": PASSING }, async (ctx) => {
    const result = await call(runTestsTool, {}, ctx);
    const output = okOutput(result);
    assert.match(
      output,
      /^\$ python3 -m unittest tests\.test_a\n2 passed, 0 failed\nexit code 0\n/,
    );
    assert.match(output, /Ran 2 tests/);
    assert.ok(result.ok);
    assert.deepEqual(result.meta, { exit_code: 0, passed: 2, failed: 0, skipped: 0 });
  });
});

Deno.test("runTestsTool.run() reports failing tests as data with counts", async () => {
  await withContext({ "src/calc.py": CALC, "tests/test_a.py": MIXED }, async (ctx) => {
    const result = await call(runTestsTool, {}, ctx);
    const output = okOutput(result);
    assert.match(output, /\n1 passed, 1 failed, 1 skipped\nexit code 1\n/);
    assert.match(output, /AssertionError: 0 != -2/);
    assert.ok(result.ok);
    assert.deepEqual(result.meta, { exit_code: 1, passed: 1, failed: 1, skipped: 1 });
  });
});

Deno.test("runTestsTool.run() runs the workspace's current code", async () => {
  await withContext({ "src/calc.py": CALC, "tests/test_a.py": MIXED }, async (ctx) => {
    writeFileSync(join(ctx.workspace.dir, "src/calc.py"), "def add(a, b):\n    return a + b\n");
    const result = await call(runTestsTool, {}, ctx);
    assert.deepEqual(result.meta, { exit_code: 0, passed: 2, failed: 0, skipped: 1 });
  });
});

Deno.test("runTestsTool.run() runs one test picked by its id", async () => {
  await withContext({ "src/calc.py": CALC, "tests/test_a.py": MIXED }, async (ctx) => {
    const result = await call(runTestsTool, { selector: "tests/test_a.py::T::test_add" }, ctx);
    assert.match(
      okOutput(result),
      /^\$ python3 -m unittest tests\.test_a\.T\.test_add\n1 passed, 0 failed\nexit code 0/,
    );
    assert.deepEqual(result.meta, { exit_code: 0, passed: 1, failed: 0, skipped: 0 });
  });
});

Deno.test("runTestsTool.run() accepts a visible test file as selector", async () => {
  await withContext({ "src/calc.py": CALC, "tests/test_a.py": PASSING }, async (ctx) => {
    const result = await call(runTestsTool, { selector: "tests/test_a.py" }, ctx);
    assert.deepEqual(result.meta, { exit_code: 0, passed: 2, failed: 0, skipped: 0 });
  });
});

Deno.test("runTestsTool.run() reports a test file that cannot be imported", async () => {
  await withContext({ "tests/test_a.py": "import missing_module\n" }, async (ctx) => {
    const result = await call(runTestsTool, {}, ctx);
    const output = okOutput(result);
    assert.match(output, /0 passed, 1 failed/);
    assert.match(output, /missing_module/);
    assert.equal(result.ok && result.meta?.exit_code, 1);
  });
});

Deno.test("runTestsTool.run() refuses a selector outside the visible tests with invalid_input", async () => {
  await withContext({ "src/calc.py": CALC, "tests/test_a.py": PASSING }, async (ctx) => {
    for (
      const selector of [
        "tests/test_b.py",
        "tests/test_hidden.py::T::test_x",
        "test_a.py::T::test_add",
        "",
      ]
    ) {
      const message = failMessage(await call(runTestsTool, { selector }, ctx), "invalid_input");
      assert.match(message, /is not one of the visible test files \("tests\/test_a\.py"\)/);
    }
  });
});

Deno.test("runTestsTool.run() kills a test that never ends and returns timeout", async () => {
  const hanging =
    "import time, unittest\nclass T(unittest.TestCase):\n    def test_hang(self):\n        time.sleep(600)\n";
  await withContext({ "tests/test_a.py": hanging }, async (ctx) => {
    const result = await call(runTestsTool, {}, ctx);
    const message = failMessage(result, "timeout");
    assert.match(
      message,
      /^Tests timed out after 1s and were killed; look for an infinite loop or a blocking call\n/,
    );
    assert.match(message, /no test report was written/);
    assert.match(message, /killed: timed out/);
    const { exit_code: _, ...counts } = result.meta ?? {};
    assert.deepEqual(counts, { passed: 0, failed: 0, skipped: 0 });
  }, { limits: { max_turns: 5, command_timeout_s: 1 } });
});

pytestTest("runTestsTool.run() runs pytest tests", async () => {
  const tests =
    "from src.calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n\ndef test_neg():\n    assert add(-1, -1) == -2\n";
  // Under "python3 -I" the root is importable only through a package: tests/__init__.py.
  const files = {
    "src/__init__.py": "",
    "src/calc.py": CALC,
    "tests/__init__.py": "",
    "tests/test_a.py": tests,
  };
  await withContext(files, async (ctx) => {
    const result = await call(runTestsTool, {}, ctx);
    assert.match(
      okOutput(result),
      /^\$ python3 -m pytest tests\/test_a\.py\n1 passed, 1 failed\nexit code 1\n/,
    );
    assert.deepEqual(result.meta, { exit_code: 1, passed: 1, failed: 1, skipped: 0 });
    const one = await call(runTestsTool, { selector: "tests/test_a.py::test_add" }, ctx);
    assert.deepEqual(one.meta, { exit_code: 0, passed: 1, failed: 0, skipped: 0 });
  }, { runner: "pytest", fail_to_pass: ["tests/test_hidden.py::test_x"] });
});

const DENO_SPEC = {
  language: "typescript" as const,
  runner: "deno_test" as const,
  visible_tests: ["tests/a_test.ts"],
  hidden_tests: ["tests/hidden_test.ts"],
  fail_to_pass: ["tests/hidden_test.ts::x"],
};

const DENO_TESTS = `import assert from "node:assert/strict";
import { add } from "../src/x.ts";

Deno.test("adds", () => {
  assert.equal(add(1, 2), 3);
});

Deno.test("adds negatives", () => {
  assert.equal(add(-1, -1), -2);
});
`;

Deno.test("runTestsTool.run() runs deno tests", async () => {
  const source =
    "export function add(a: number, b: number): number {\n  return a >= 0 ? a + b : a - b;\n}\n";
  await withContext({ "src/x.ts": source, "tests/a_test.ts": DENO_TESTS }, async (ctx) => {
    const result = await call(runTestsTool, {}, ctx);
    const output = okOutput(result);
    assert.match(output, /^\$ deno test tests\/a_test\.ts\n1 passed, 1 failed\nexit code 1\n/);
    assert.deepEqual(result.meta, { exit_code: 1, passed: 1, failed: 1, skipped: 0 });
    const one = await call(runTestsTool, { selector: "tests/a_test.ts::adds" }, ctx);
    assert.match(
      okOutput(one),
      /^\$ deno test tests\/a_test\.ts::adds\n1 passed, 0 failed.*\nexit code 0/,
    );
    // Deno's JUnit report lists the filtered-out test as skipped, so only passes and failures are exact.
    assert.equal(one.meta?.exit_code, 0);
    assert.equal(one.meta?.passed, 1);
    assert.equal(one.meta?.failed, 0);
  }, DENO_SPEC);
});

Deno.test("runTestsTool.run() refuses a selector for another file in a deno task", async () => {
  await withContext({ "src/x.ts": "", "tests/a_test.ts": DENO_TESTS }, async (ctx) => {
    failMessage(
      await call(runTestsTool, { selector: "tests/hidden_test.ts::x" }, ctx),
      "invalid_input",
    );
  }, DENO_SPEC);
});

Deno.test("executeTool() refuses run_tests arguments of the wrong type or name with invalid_input", async () => {
  await withContext({ "tests/test_a.py": PASSING }, async (ctx) => {
    const result = await executeTool("run_tests", { selector: 3 }, ctx);
    failMessage(result, "invalid_input");
    failMessage(
      await executeTool("run_tests", { files: ["tests/test_a.py"] }, ctx),
      "invalid_input",
    );
  });
});

// Attack: bwrap resolves symlinks in a bind's path, so a visible test file that the agent's code
// replaced with a relative symlink up to the host's root got the whole host mounted over the
// jail's root for the run (read-only): hidden tests, reference patches, /etc/shadow.
Deno.test("runTestsTool.run() never mounts what a test file symlinked by the agent leads to", async () => {
  const snoop = `import os
def add(a, b):
    try:
        print("SEEN", open(__snoop__).read())
    except OSError:
        pass
    return a + b
`;
  const other =
    "import unittest\nclass U(unittest.TestCase):\n    def test_b(self):\n        pass\n";
  await withContext(
    { "src/calc.py": CALC, "tests/test_a.py": PASSING, "tests/test_b.py": other },
    async (ctx, root) => {
      // A secret beside the task, as its hidden tests and reference patch are.
      const secret = join(root, "task", "hidden", "secret.txt");
      mkdirSync(join(root, "task", "hidden"), { recursive: true });
      writeFileSync(secret, "the hidden answer");
      writeFileSync(
        join(ctx.workspace.dir, "src/calc.py"),
        snoop.replace("__snoop__", JSON.stringify(secret)),
      );
      const up = "../".repeat(ctx.workspace.dir.split("/").length);
      const planted = await call(runCommandTool, {
        argv: [
          "python3",
          "-c",
          `import os; os.remove("tests/test_b.py"); os.symlink(${
            JSON.stringify(`${up}tmp/..`)
          }, "tests/test_b.py")`,
        ],
      }, ctx);
      assert.equal(planted.meta?.exit_code, 0, JSON.stringify(planted));
      const result = await call(runTestsTool, { selector: "tests/test_a.py" }, ctx);
      const output = result.ok ? result.output : result.message;
      assert.ok(!output.includes("the hidden answer"), output);
      assert.deepEqual(result.meta, { exit_code: 0, passed: 2, failed: 0, skipped: 0 });
    },
    { visible_tests: ["tests/test_a.py", "tests/test_b.py"] },
  );
});
