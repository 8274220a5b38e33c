import assert from "node:assert/strict";
import { join } from "node:path";
import { Environment } from "../../src/agent/environment.ts";
import { validateTask } from "../../src/rollout/validate.ts";
import { synthesize } from "../../src/synth/synth.ts";
import { loadTask } from "../../src/task/load.ts";
import { writeFiles } from "../_fixtures.ts";

// A seed (no reference patch: its repository is used as it is) whose tests pass, with a line no test can notice (RETRIES), so some mutants are
// equivalent and must be dropped.
const SEED: Record<string, string> = {
  "task.json": JSON.stringify({
    id: "seed-prices",
    title: "Prices",
    language: "python",
    difficulty: "easy",
    kind: "one_line_bug",
    statement: "Seed",
    runner: "unittest",
    visible_tests: ["tests/test_prices.py"],
    hidden_tests: ["tests/test_prices_hidden.py"],
    fail_to_pass: ["tests/test_prices_hidden.py::HiddenTest::test_bulk"],
    pass_to_pass: ["tests/test_prices.py::PriceTest::test_total"],
    protected_paths: ["tests/"],
    solution: null,
  }),
  "repo/prices.py": `RETRIES = 3


def total(unit, quantity):
    return unit * quantity


def bulk_total(unit, quantity, threshold=10):
    amount = total(unit, quantity)
    if quantity >= threshold:
        amount = amount - amount // 10
    return amount
`,
  "repo/tests/__init__.py": "",
  "repo/tests/test_prices.py": `import unittest

from prices import total


class PriceTest(unittest.TestCase):
    def test_total(self):
        self.assertEqual(total(3, 4), 12)
`,
  "hidden/tests/test_prices_hidden.py": `import unittest

from prices import bulk_total


class HiddenTest(unittest.TestCase):
    def test_bulk(self):
        self.assertEqual(bulk_total(10, 10), 90)

    def test_small(self):
        self.assertEqual(bulk_total(10, 9), 90)
`,
};

Deno.test("synthesize() writes tasks that validate, fail before and pass after the reference, and drops equivalent mutants", async () => {
  const root = await Deno.makeTempDir({ prefix: "patchgym-synth-test-" });
  try {
    writeFiles(join(root, "seeds", "seed-prices"), SEED);
    const env = await Environment.open({
      tasksDir: join(root, "seeds"),
      workRoot: join(root, "work"),
    });
    const out = join(root, "out");
    const events: string[] = [];
    const report = await synthesize([env.task("seed-prices")], {
      sandbox: env.sandbox,
      workRoot: env.workRoot,
      outDir: out,
      perSeed: 20,
      multiPerSeed: 2,
      // Three tests only: more tasks per failing set leave pairs that do not cancel out.
      maxPerFailingSet: 100,
      keepNearDuplicates: true,
      onProgress: (e) => events.push(e.outcome),
    });
    assert.equal(report.seeds[0].problem, null);
    assert.equal(report.seeds[0].passing_tests, 3);
    // RETRIES = 3 -> 4 or 2 changes a value no test reads: equivalent, dropped.
    assert.ok(report.dropped.equivalent > 0, JSON.stringify(report.dropped));
    assert.ok(report.written.length >= 5, `${report.written.length} written`);
    assert.equal(events.length, report.tried);
    assert.ok(report.written.some((id) => /-m[23]-/.test(id)), "a multi-mutation task");
    const check = await Environment.open({ tasksDir: out, workRoot: join(root, "work2") });
    for (const id of report.written) {
      const task = loadTask(join(out, id));
      const source = Deno.readTextFileSync(join(task.repoDir, "prices.py"));
      assert.ok(
        source.startsWith("RETRIES = 3\n"),
        `${id} holds an equivalent mutant`,
      );
      // validateTask: fail_to_pass fails and pass_to_pass passes before, all pass after.
      const result = await validateTask(check, id);
      assert.deepEqual(result.problems, [], id);
      assert.equal(result.status, "valid");
      assert.match(task.spec.statement, /now fail/);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
