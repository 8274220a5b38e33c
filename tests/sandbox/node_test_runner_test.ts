/**
 * `node_test` runs through `runTests()`: outcomes come only from the preload's signed records
 * (src/sandbox/_node_preload.ts), so what the code under test prints, how it exits, or what it
 * does to node:test cannot earn a pass.
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { runTests, type TestRun } from "../../src/sandbox/test_runner.ts";
import { testSandbox, writeFiles } from "../_fixtures.ts";

/** Write `files` as a repository in a temp folder and run its node tests there. */
async function runNode(
  files: Record<string, string>,
  testFiles: string[],
  selector?: string,
): Promise<TestRun> {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-node-" }));
  try {
    const dir = join(base, "repo");
    writeFiles(dir, files);
    const run = await runTests(await testSandbox(), {
      runner: "node_test",
      dir,
      files: testFiles,
      selector,
      timeoutMs: 20_000,
    });
    assert.deepEqual([...Deno.readDirSync(base)].map((e) => e.name), ["repo"]);
    return run;
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

function outcomes(run: TestRun): Record<string, string> {
  return Object.fromEntries([...run.tests].sort(([a], [b]) => (a < b ? -1 : 1)));
}

function shown(run: TestRun): string {
  return `exit ${run.result.exitCode}\n${run.result.stdout}\n${run.result.stderr}`;
}

const CALC = "export function add(a, b) {\n  return a + b;\n}\n";

const CALC_TEST = `import test, { describe, it } from "node:test";
import assert from "node:assert/strict";
import { add } from "../src/calc.mjs";

test("adds", () => {
  assert.equal(add(1, 2), 3);
});

test("fails", () => {
  assert.equal(add(1, 2), 4);
});

test("async", async () => {
  await new Promise((resolve) => setTimeout(resolve, 1));
  assert.equal(add(2, 2), 4);
});

test.skip("later", () => {});

describe("suite", () => {
  it("inner", () => assert.equal(add(0, 0), 0));
  describe("deeper", () => {
    it("leaf", () => assert.equal(add(1, 1), 3));
  });
});

test("parent", async (t) => {
  await t.test("child", () => assert.equal(add(1, 1), 2));
});
`;

Deno.test("runTests() reads node_test outcomes by file::name, suites joined with ' > '", async () => {
  const run = await runNode({ "src/calc.mjs": CALC, "test/calc.test.mjs": CALC_TEST }, [
    "test/calc.test.mjs",
  ]);
  assert.deepEqual(outcomes(run), {
    "test/calc.test.mjs::adds": "passed",
    "test/calc.test.mjs::async": "passed",
    "test/calc.test.mjs::fails": "failed",
    "test/calc.test.mjs::later": "skipped",
    "test/calc.test.mjs::parent": "passed",
    "test/calc.test.mjs::parent > child": "passed",
    "test/calc.test.mjs::suite > deeper > leaf": "failed",
    "test/calc.test.mjs::suite > inner": "passed",
  }, shown(run));
  assert.deepEqual(run.problems, []);
  assert.match(run.failures.get("test/calc.test.mjs::fails") ?? "", /3 !== 4/);
  assert.equal(run.display, "node --test test/calc.test.mjs");
});
