/**
 * The judge end to end: separated unittest files run through the real reporter in the sandbox and
 * are judged outside, for values honest code returns that a literal compares equal to in Python.
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { judge } from "../../src/reward/judge.ts";
import { separate } from "../../src/reward/separate.ts";
import { runTests } from "../../src/sandbox/test_runner.ts";
import { testSandbox, writeFiles } from "../_fixtures.ts";

const LIB = `import collections, datetime, decimal, enum, fractions


class Level(enum.IntEnum):
    HIGH = 3


class Name(str):
    pass


def values():
    return {
        "keys": {"a": 1, "b": 2}.keys(),
        "items": {"a": 1}.items(),
        "buffer": bytearray(b"ab"),
        "counter": collections.Counter("aab"),
        "ordered": collections.OrderedDict([("x", 1)]),
        "point": collections.namedtuple("Point", "x y")(1, 2),
        "level": Level.HIGH,
        "name": Name("ann"),
        "money": decimal.Decimal("4.50"),
        "half": fractions.Fraction(1, 2),
        "day": datetime.date(2025, 3, 17),
        "when": datetime.datetime(2024, 5, 1, 11, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
        "gap": datetime.timedelta(hours=36),
        "ratio": 1 / 3,
    }
`;

const TESTS = `import unittest
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction

from lib import values


class ValuesTest(unittest.TestCase):
    def test_values(self):
        v = values()
        self.assertEqual(v["keys"], {"a", "b"})
        self.assertEqual(v["items"], {("a", 1)})
        self.assertEqual(v["buffer"], b"ab")
        self.assertEqual(v["counter"], {"a": 2, "b": 1})
        self.assertEqual(v["ordered"], {"x": 1})
        self.assertEqual(v["point"], (1, 2))
        self.assertEqual(v["level"], 3)
        self.assertEqual(v["name"], "ann")
        self.assertEqual(v["money"], Decimal("4.5"))
        self.assertEqual(v["half"], 0.5)
        self.assertEqual(v["day"], date(2025, 3, 17))
        self.assertEqual(v["when"], datetime(2024, 5, 1, 9, tzinfo=timezone.utc))
        self.assertEqual(v["gap"], timedelta(days=1, hours=12))
        self.assertAlmostEqual(v["ratio"], 0.333333333)
        self.assertIn("a", v["keys"])
        self.assertGreater(v["level"], 2)
        with self.assertRaises(KeyError):
            v["missing"]
`;

Deno.test("judge() passes values Python compares equal to their literals, judged outside", async () => {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-judge-" }));
  try {
    const dir = join(base, "repo");
    let n = 0;
    const plan = separate(TESTS, "unittest", () => `s${n++}`);
    writeFiles(dir, { "lib.py": LIB, "test_values.py": plan.source });
    assert.doesNotMatch(plan.source, /4\.5|2025/);
    const run = await runTests(await testSandbox(), {
      runner: "unittest",
      dir,
      files: ["test_values.py"],
      timeoutMs: 20_000,
      trusted: ["test_values.py"],
      observe: true,
    });
    const id = "test_values.py::ValuesTest::test_values";
    assert.equal(run.tests.get(id), "passed", JSON.stringify([...run.failures]));
    const verdict = judge(
      "unittest",
      run.tests,
      run.observations,
      new Map([["test_values.py", plan]]),
    );
    assert.equal(verdict.outcomes.get(id), "passed", verdict.failures.get(id));
    assert.equal(verdict.where.get(id), "inside", "assertIn keeps its literal inside");
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

// Seen on a real repository: `pytest.raises(LocalError)` on a class defined in the test's body
// failed ("it raised ...<locals>.LocalError"): the qualified name was compared whole.
Deno.test("judge() passes a raise of an exception class defined in the test or nested in a class", async () => {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-judge-" }));
  try {
    const dir = join(base, "repo");
    let n = 0;
    const plan = separate(
      `import pytest

from lib import fail_with


class Outer:
    class Inner(Exception):
        pass


def test_local():
    class LocalError(Exception):
        pass

    with pytest.raises(LocalError):
        fail_with(LocalError)


def test_nested():
    with pytest.raises(Outer.Inner):
        fail_with(Outer.Inner)


def test_other():
    class LocalError(Exception):
        pass

    with pytest.raises(LocalError):
        fail_with(KeyError)
`,
      "pytest",
      () => `s${n++}`,
    );
    writeFiles(dir, {
      "lib.py": "def fail_with(cls):\n    raise cls()\n",
      "test_r.py": plan.source,
    });
    const run = await runTests(await testSandbox(), {
      runner: "pytest",
      dir,
      files: ["test_r.py"],
      timeoutMs: 20_000,
      trusted: ["test_r.py"],
      observe: true,
    });
    const verdict = judge("pytest", run.tests, run.observations, new Map([["test_r.py", plan]]));
    for (const name of ["test_local", "test_nested"]) {
      const id = `test_r.py::${name}`;
      assert.equal(verdict.outcomes.get(id), "passed", verdict.failures.get(id));
    }
    assert.notEqual(verdict.outcomes.get("test_r.py::test_other"), "passed");
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
