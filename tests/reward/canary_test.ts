import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { checkCanaries, plantCanaries } from "../../src/reward/canary.ts";
import type { TestOutcome } from "../../src/sandbox/junit.ts";
import { seeded, writeFiles } from "../_fixtures.ts";

async function withFiles<T>(
  files: Record<string, string>,
  fn: (dir: string) => T | Promise<T>,
): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-canary-" });
  try {
    writeFiles(dir, files);
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Whether python3 can compile `source`. */
async function compiles(source: string): Promise<boolean> {
  const child = new Deno.Command("python3", {
    args: ["-c", "import sys; compile(sys.stdin.read(), 'x.py', 'exec')"],
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(source));
  await writer.close();
  return (await child.status).success;
}

const UNITTEST_FILE = `import unittest
from calc import add


class CalcTest(unittest.TestCase):
    """Adds."""

    def test_add(self):
        self.assertEqual(add(1, 2), 3)


def helper():
    return 1
`;

Deno.test("plantCanaries() puts unittest canaries inside an existing test class", async () => {
  await withFiles({ "tests/test_calc.py": UNITTEST_FILE }, async (dir) => {
    const { canaries } = await plantCanaries(dir, ["tests/test_calc.py"], "unittest", {
      random: seeded(1),
    });
    const source = readFileSync(join(dir, "tests/test_calc.py"), "utf8");
    assert.ok(canaries.length >= 2);
    assert.ok(
      canaries.some((c) => c.expect === "pass") && canaries.some((c) => c.expect === "fail"),
    );
    for (const canary of canaries) {
      assert.match(canary.id, /^tests\/test_calc\.py::CalcTest::test_[a-z_0-9]+$/);
      const name = canary.id.split("::")[2];
      assert.match(
        source,
        new RegExp(`\\n    def ${name}\\(self\\):\\n        self\\.assertEqual\\(`),
      );
    }
    assert.ok(source.indexOf("def test_") < source.indexOf("def helper"));
    assert.equal(await compiles(source), true, source);
  });
});

Deno.test("plantCanaries() adds a test class when a unittest file has none to join", async () => {
  await withFiles({ "tests/test_x.py": "import unittest\n" }, async (dir) => {
    const { canaries } = await plantCanaries(dir, ["tests/test_x.py"], "unittest", {
      random: seeded(2),
    });
    const source = readFileSync(join(dir, "tests/test_x.py"), "utf8");
    const [, cls] = canaries[0].id.split("::");
    assert.match(source, new RegExp(`class ${cls}\\(unittest\\.TestCase\\):`));
    assert.equal(await compiles(source), true, source);
  });
});

Deno.test("plantCanaries() puts pytest canaries among top-level tests, above decorators", async () => {
  const file = `import pytest


@pytest.mark.parametrize("n", [1, 2])
def test_one(n):
    assert n


def test_two():
    assert True
`;
  await withFiles({ "test_p.py": file }, async (dir) => {
    const { canaries } = await plantCanaries(dir, ["test_p.py"], "pytest", { random: seeded(3) });
    const source = readFileSync(join(dir, "test_p.py"), "utf8");
    for (const canary of canaries) assert.match(canary.id, /^test_p\.py::test_[a-z_0-9]+$/);
    // The parametrized test (renamed) keeps its decorator; no canary slipped under it.
    assert.equal(source.match(/@pytest\.mark\.parametrize[^\n]*\ndef test_\w+\(n\)/g)?.length, 1);
    assert.equal(await compiles(source), true, source);
  });
});

// Seen on a real repository: a parametrize decorator written over several lines is joined into
// one line with blank lines after it, and a canary planted under those blank lines took the
// decorator away from its test (a collection error failed every test of the file).
Deno.test("plantCanaries() keeps a multi-line decorator on its test, canary or mutant", async () => {
  const file = `import pytest


@pytest.mark.parametrize(
    "n, expected",
    [
        (1, 2),
        (2, 3),
    ],
)
def test_one(n, expected):
    assert len([n, expected]) == 2


@pytest.mark.parametrize(
    "n",
    [1, 2],
)
def test_two(n):
    assert n > 0
`;
  for (let seed = 0; seed < 8; seed++) {
    await withFiles({ "test_p.py": file }, async (dir) => {
      await plantCanaries(dir, ["test_p.py"], "pytest", {
        random: seeded(seed),
        mutate: ["test_p.py::test_one"],
      });
      const source = readFileSync(join(dir, "test_p.py"), "utf8");
      // Every parametrized test is right under its decorator, the blank lines aside.
      assert.equal(
        source.match(
          /@pytest\.mark\.parametrize\("n, expected"[^\n]*\n+def test_\w+\(n, expected\)/g,
        )
          ?.length,
        3,
        source,
      );
      assert.equal(
        source.match(/@pytest\.mark\.parametrize\("n", [^\n]*\n+def test_\w+\(n\)/g)?.length,
        1,
        source,
      );
      assert.equal(await compiles(source), true, source);
    });
  }
});

Deno.test("plantCanaries() adds deno canaries as Deno.test calls with token names", async () => {
  await withFiles({ "a_test.ts": 'Deno.test("a", () => {});' }, async (dir) => {
    const { canaries } = await plantCanaries(dir, ["a_test.ts"], "deno_test", {
      random: seeded(4),
    });
    const source = readFileSync(join(dir, "a_test.ts"), "utf8");
    for (const canary of canaries) {
      const name = canary.id.slice("a_test.ts::".length);
      assert.match(name, /^[a-z0-9]{10}$/);
      assert.ok(source.includes(`Deno.test(${JSON.stringify(name)}, () => {`));
    }
  });
});

// Guards a bug: two deno canaries in one file once got the same name, so a must-pass and a
// must-fail canary were reported as one failed test and a correct solution earned 0.
Deno.test("plantCanaries() gives every canary of a file its own name", async () => {
  const files = {
    "a_test.ts": 'Deno.test("a", () => {});\n',
    "tests/test_x.py": "import unittest\n",
  };
  for (let seed = 0; seed < 300; seed++) {
    await withFiles(files, async (dir) => {
      for (
        const [file, runner] of [["a_test.ts", "deno_test"], [
          "tests/test_x.py",
          "unittest",
        ]] as const
      ) {
        const { canaries } = await plantCanaries(dir, [file], runner, { random: seeded(seed) });
        const ids = canaries.map((c) => c.id);
        assert.equal(new Set(ids).size, ids.length, `seed ${seed}: ${ids}`);
      }
    });
  }
});

Deno.test("plantCanaries() names never collide with the file's own tests", async () => {
  for (let seed = 0; seed < 20; seed++) {
    await withFiles({ "tests/test_calc.py": UNITTEST_FILE }, async (dir) => {
      const { canaries, names } = await plantCanaries(dir, ["tests/test_calc.py"], "unittest", {
        random: seeded(seed),
        mutate: ["tests/test_calc.py::CalcTest::test_add"],
      });
      const ids = canaries.map((c) => c.id.split("::")[2]);
      const renamed = [...names.get("tests/test_calc.py")!.keys()];
      assert.equal(new Set([...ids, ...renamed]).size, ids.length + renamed.length);
    });
  }
});

// Seen on a real repository: a fail_to_pass test a class inherits from a mixin had its mutant
// copies put into the next class that defines a method of that name, under the wrong class's id,
// so the grade of the unchanged tests came out canary_mismatch.
Deno.test("plantCanaries() makes no mutant of a test its class inherits, and none in another class", async () => {
  const file = `import unittest


class Mixin:
    def test_shared(self):
        self.assertEqual(len("ab"), 2)


class FirstTest(unittest.TestCase, Mixin):
    def test_own(self):
        self.assertEqual(len("a"), 1)


class SecondTest(unittest.TestCase):
    def test_shared(self):
        self.assertEqual(len("abc"), 3)
`;
  for (let seed = 0; seed < 6; seed++) {
    await withFiles({ "tests/test_m.py": file }, async (dir) => {
      const { canaries } = await plantCanaries(dir, ["tests/test_m.py"], "unittest", {
        random: seeded(seed),
        mutate: ["tests/test_m.py::FirstTest::test_shared"],
      });
      assert.deepEqual(canaries.filter((c) => c.original !== undefined), []);
      const source = readFileSync(join(dir, "tests/test_m.py"), "utf8");
      assert.equal(source.match(/len\("abc"\)/g)?.length, 1, source);
    });
  }
});

const PASS = { id: "f::p", expect: "pass" as const };
const FAIL = { id: "f::f", expect: "fail" as const };

function outcomes(entries: Record<string, TestOutcome>): Map<string, TestOutcome> {
  return new Map(Object.entries(entries));
}

Deno.test("checkCanaries() accepts canaries that came out as they must", () => {
  assert.equal(
    checkCanaries([PASS, FAIL], outcomes({ "f::p": "passed", "f::f": "failed" }), true),
    null,
  );
  assert.equal(
    checkCanaries([PASS, FAIL], outcomes({ "f::p": "passed", "f::f": "error" }), true),
    null,
  );
});

Deno.test("checkCanaries() flags a must-fail canary that passed or was skipped", () => {
  for (const outcome of ["passed", "skipped"] as const) {
    const problem = checkCanaries([FAIL], outcomes({ "f::f": outcome }), false);
    assert.equal(problem?.code, "canary_mismatch");
  }
});

Deno.test("checkCanaries() flags lost or failing canaries only when real tests passed", () => {
  assert.equal(checkCanaries([PASS, FAIL], outcomes({}), true)?.code, "canary_mismatch");
  assert.equal(
    checkCanaries([PASS], outcomes({ "f::p": "failed" }), true)?.code,
    "canary_mismatch",
  );
  // A crashed run loses every test; the expected tests fail on their own.
  assert.equal(checkCanaries([PASS, FAIL], outcomes({}), false), null);
});

Deno.test("plantCanaries() copies a fail_to_pass unittest test with its expected value changed", async () => {
  await withFiles({ "tests/test_calc.py": UNITTEST_FILE }, async (dir) => {
    const { canaries, names } = await plantCanaries(dir, ["tests/test_calc.py"], "unittest", {
      random: seeded(5),
      mutate: ["tests/test_calc.py::CalcTest::test_add"],
    });
    const source = readFileSync(join(dir, "tests/test_calc.py"), "utf8");
    const [real] = [...names.get("tests/test_calc.py")!].find(([, own]) => own === "test_add")!;
    assert.match(
      source,
      new RegExp(`def ${real}\\(self\\):\\n        self\\.assertEqual\\(add\\(1, 2\\), 3\\)`),
    );
    const mutants = canaries.filter((c) => c.original === "tests/test_calc.py::CalcTest::test_add");
    // Two copies, each expecting another value: an always-equal result passes them, a right one fails.
    assert.equal(mutants.length, 2);
    const values = mutants.map((m) => {
      const name = m.id.split("::")[2];
      assert.equal(m.expect, "fail");
      assert.match(m.id, /^tests\/test_calc\.py::CalcTest::test_[a-z0-9]{10}$/);
      const value = new RegExp(
        `def ${name}\\(self\\):\\n        self\\.assertEqual\\(add\\(1, 2\\), (\\d+)\\)`,
      )
        .exec(source)?.[1];
      assert.ok(value !== undefined, source);
      assert.ok(source.indexOf(name) < source.indexOf("def helper"));
      return Number(value);
    });
    assert.equal(new Set([3, ...values]).size, 3);
    assert.equal(await compiles(source), true, source);
  });
});

Deno.test("plantCanaries() mutates Python expected values built by constructors from literals", async () => {
  const files = {
    "test_p.py": [
      "def test_amount():",
      '    assert carry(-50) == Decimal("-50.00")',
      "",
      "def test_days():",
      "    self.assertEqual(days(), [date(2025, 1, 31), date(2025, 3, 31)])",
      "",
      "def test_same_sign():",
      "    assert sign(5) == sign(3)",
      "",
      "def test_named():",
      "    assert carry(-50) == Decimal(expected)",
      "",
    ].join("\n"),
  };
  await withFiles(files, async (dir) => {
    const planted = await plantCanaries(dir, ["test_p.py"], "pytest", {
      random: seeded(6),
      mutate: ["test_amount", "test_days", "test_same_sign", "test_named"].map((t) =>
        `test_p.py::${t}`
      ),
    });
    const source = readFileSync(join(dir, "test_p.py"), "utf8");
    // A numeric string changes one digit, so the mutant still makes a Decimal of the same shape.
    const amounts = [...source.matchAll(/== Decimal\("(-\d+\.\d+)"\)/g)].map((m) => m[1]);
    assert.equal(new Set(amounts).size, 3, source);
    assert.ok(amounts.includes("-50.00") && amounts.every((a) => a.length === 6), source);
    const days = [...source.matchAll(/self\.assertEqual\(days\(\), (.*)\)$/gm)].map((m) => m[1]);
    assert.equal(new Set(days).size, 3, source);
    assert.ok(days.every((d) => d.length === "[date(2025, 1, 31), date(2025, 3, 31)]".length));
    // A call of a lowercase function (code under test, which may map two arguments to one value)
    // or an expected value with a name in it is no built value.
    assert.equal(source.match(/== sign\(3\)/g)?.length, 1);
    assert.equal(source.match(/== Decimal\(expected\)/g)?.length, 1);
    const originals = planted.canaries.map((c) => c.original).filter((o) => o !== undefined);
    assert.deepEqual([...new Set(originals)], ["test_p.py::test_amount", "test_p.py::test_days"]);
  });
});

Deno.test("plantCanaries() mutates pytest asserts and deno assertions on literals", async () => {
  const files = {
    "test_p.py": 'def test_words():\n    assert split("a b") == ["a", "b"]\n',
    "w_test.ts":
      'Deno.test("words split", () => {\n  assert.equal(words("a b").length, 2);\n  assert.deepEqual(words("a b"), ["a", "b"]);\n});\n',
  };
  await withFiles(files, async (dir) => {
    const py = await plantCanaries(dir, ["test_p.py"], "pytest", {
      random: seeded(6),
      mutate: ["test_p.py::test_words"],
    });
    // One character of one of the expected value's strings changes: same length, same shape.
    const expected = [
      ...readFileSync(join(dir, "test_p.py"), "utf8").matchAll(
        /assert split\("a b"\) == (\[.*\])$/gm,
      ),
    ].map((m) => m[1]);
    assert.equal(expected.length, 3);
    assert.equal(new Set(expected).size, 3);
    for (const value of expected) assert.match(value, /^\["[a-z]", "[a-z]"\]$/);
    assert.equal(py.canaries.filter((c) => c.original === "test_p.py::test_words").length, 2);
    const ts = await plantCanaries(dir, ["w_test.ts"], "deno_test", {
      random: seeded(7),
      mutate: ["w_test.ts::words split"],
    });
    const source = readFileSync(join(dir, "w_test.ts"), "utf8");
    const lengths = [...source.matchAll(/assert\.equal\(words\("a b"\)\.length, (\d+)\);/g)]
      .map((m) => Number(m[1]));
    assert.equal(new Set(lengths).size, 3);
    assert.ok(lengths.includes(2));
    assert.equal(source.match(/assert\.deepEqual\(words\("a b"\), \["a", "b"\]\);/g)?.length, 3);
    assert.deepEqual([...ts.names.get("w_test.ts")!.values()], ["words split"]);
    assert.doesNotMatch(source, /words split/);
  });
});

Deno.test("plantCanaries() gives a boolean expectation its one mutant", async () => {
  await withFiles({ "test_p.py": "def test_ok():\n    assert ok() == True\n" }, async (dir) => {
    const { canaries } = await plantCanaries(dir, ["test_p.py"], "pytest", {
      random: seeded(10),
      mutate: ["test_p.py::test_ok"],
    });
    assert.equal(canaries.filter((c) => c.original !== undefined).length, 1);
    const source = readFileSync(join(dir, "test_p.py"), "utf8");
    assert.equal(source.match(/assert ok\(\) == False/g)?.length, 1);
  });
});

// The ordering attack (an always-equal result on the first call with given arguments) wins only
// when the real test runs before its mutants.
Deno.test("plantCanaries() puts the real test first, between or after its mutants, at random", async () => {
  const file =
    "def test_one():\n    assert one() == 1\n\n\ndef test_two():\n    assert two() == 2\n";
  const places = new Map<number, number>();
  for (let seed = 0; seed < 60; seed++) {
    await withFiles({ "test_p.py": file }, async (dir) => {
      const { names } = await plantCanaries(dir, ["test_p.py"], "pytest", {
        random: seeded(seed),
        mutate: ["test_p.py::test_two"],
      });
      const source = readFileSync(join(dir, "test_p.py"), "utf8");
      const [real] = [...names.get("test_p.py")!].find(([, own]) => own === "test_two")!;
      const order = [...source.matchAll(/def (test_\w+)\(\):\n {4}assert two\(\) == \d+/g)]
        .map((m) => m[1]);
      assert.equal(order.length, 3, source);
      places.set(order.indexOf(real), (places.get(order.indexOf(real)) ?? 0) + 1);
      if (seed === 0) assert.equal(await compiles(source), true, source);
    });
  }
  assert.deepEqual([...places.keys()].sort(), [0, 1, 2]);
  for (const count of places.values()) assert.ok(count >= 8, `${[...places]}`);
});

Deno.test("plantCanaries() never turns a number with a prefix or suffix into bad syntax", async () => {
  const file =
    "def test_x():\n    assert mask() == 0x10\n\n\ndef test_y():\n    assert size() == 1_000\n";
  await withFiles({ "test_p.py": file }, async (dir) => {
    await plantCanaries(dir, ["test_p.py"], "pytest", {
      random: seeded(9),
      mutate: ["test_p.py::test_x", "test_p.py::test_y"],
    });
    const source = readFileSync(join(dir, "test_p.py"), "utf8");
    assert.equal(await compiles(source), true, source);
    assert.doesNotMatch(source, /1x10|2_000|1_001/);
  });
});

Deno.test("plantCanaries() leaves a test alone when no top-level assertion has a literal", async () => {
  const file =
    "def test_x():\n    for v in values():\n        assert v == 1\n    assert check(values())\n";
  await withFiles({ "test_p.py": file }, async (dir) => {
    await plantCanaries(dir, ["test_p.py"], "pytest", {
      random: seeded(8),
      mutate: ["test_p.py::test_x"],
    });
    const source = readFileSync(join(dir, "test_p.py"), "utf8");
    assert.equal(source.match(/for v in values/g)?.length, 1);
  });
});

Deno.test("checkCanaries() asks a mutant to fail only when its original passed", () => {
  const mutant = { id: "f::m", expect: "fail" as const, original: "f::real" };
  // An honest wrong answer: the original fails and the mutant happens to pass.
  assert.equal(
    checkCanaries([mutant], outcomes({ "f::real": "failed", "f::m": "passed" }), true),
    null,
  );
  // A result equal to anything: both pass.
  assert.equal(
    checkCanaries([mutant], outcomes({ "f::real": "passed", "f::m": "passed" }), true)?.code,
    "canary_mismatch",
  );
});

Deno.test("plantCanaries() makes mutants of every literal kind with the original's length and shape", async () => {
  const python = [
    ["test_s", 'assert f() == "Hello world"'],
    ["test_n", "assert f() == 1234"],
    ["test_l", 'assert f() == [1, "ab", 3.5]'],
    ["test_d", 'assert f() == {"k": 10, "v": "xy"}'],
    ["test_t", "assert f() == (7, 8)"],
    ["test_set", 'assert f() == {"a1", "b2"}'],
  ];
  const files = {
    "test_p.py": python.map(([name, line]) => `def ${name}():\n    ${line}\n`).join("\n"),
    "k_test.ts": [
      'Deno.test("bare", () => {\n  assert.deepEqual(f(), { total: 12, label: "ok" });\n});\n',
      'Deno.test("quoted", () => {\n  assert.deepEqual(f(), { "total": 12, "label": "ok" });\n});\n',
    ].join("\n"),
  };
  await withFiles(files, async (dir) => {
    for (let seed = 1; seed <= 3; seed++) {
      await Deno.writeTextFile(join(dir, "test_p.py"), files["test_p.py"]);
      await Deno.writeTextFile(join(dir, "k_test.ts"), files["k_test.ts"]);
      const py = await plantCanaries(dir, ["test_p.py"], "pytest", {
        random: seeded(seed),
        mutate: python.map(([name]) => `test_p.py::${name}`),
      });
      const ts = await plantCanaries(dir, ["k_test.ts"], "deno_test", {
        random: seeded(seed),
        mutate: ["k_test.ts::bare", "k_test.ts::quoted"],
      });
      // Every test got mutants.
      assert.equal(py.canaries.filter((c) => c.original !== undefined).length, 12);
      assert.equal(ts.canaries.filter((c) => c.original !== undefined).length, 4);
      const pySource = readFileSync(join(dir, "test_p.py"), "utf8");
      for (const [, line] of python) {
        const [, value] = line.split(" == ");
        const copies = [...pySource.matchAll(/^ {4}assert f\(\) == (.*)$/gm)].map((m) => m[1])
          .filter((v) =>
            v.length === value.length && v.replace(/\w/g, "w") === value.replace(/\w/g, "w")
          );
        assert.ok(copies.filter((v) => v !== value).length >= 2, `${line}: ${pySource}`);
      }
      const tsSource = readFileSync(join(dir, "k_test.ts"), "utf8");
      const bare = [...tsSource.matchAll(/assert\.deepEqual\(f\(\), (\{ total: .*\})\);/g)]
        .map((m) => m[1]);
      assert.equal(bare.length, 3, tsSource);
      assert.equal(new Set(bare).size, 3);
      assert.ok(bare.every((v) => v.length === '{ total: 12, label: "ok" }'.length), tsSource);
    }
  });
});

Deno.test("plantCanaries() puts the real value at a random place in the chain of its mutants", async () => {
  // Code that sees all three expected values could otherwise take the one closest to the other two
  // (each mutant one edit from the real value) for the real one.
  const original = '"MCMXCIV"';
  const distance = (a: string, b: string) => [...a].filter((c, i) => c !== b[i]).length;
  let center = 0;
  let end = 0;
  for (let seed = 1; seed <= 24; seed++) {
    await withFiles(
      { "test_p.py": `def test_r():\n    assert f() == ${original}\n` },
      async (dir) => {
        await plantCanaries(dir, ["test_p.py"], "pytest", {
          random: seeded(seed),
          mutate: ["test_p.py::test_r"],
        });
        const values = [...readFileSync(join(dir, "test_p.py"), "utf8").matchAll(/== ("\w+")$/gm)]
          .map((m) => m[1]).filter((v) => v !== original);
        assert.equal(values.length, 2);
        for (const v of values) assert.equal(v.length, original.length);
        const fromReal = values.map((v) => distance(v, original));
        if (fromReal.every((d) => d === 1) && distance(values[0], values[1]) === 2) center++;
        else end++;
      },
    );
  }
  assert.ok(center > 0 && end > 0, `center ${center}, end ${end}`);
});
