import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "../../src/rollout/environment.ts";
import { validateTask } from "../../src/rollout/validate.ts";
import { convertRecord, importSwebench, taskIdFor } from "../../src/task/import_swebench.ts";
import { loadTask } from "../../src/task/load.ts";
import { pytestTest } from "../_pytest.ts";

const AREA = `"""Areas of simple shapes."""
import math


def rectangle(width, height):
    """Area of a rectangle; negative sides are rejected."""
    if width < 0 or height < 0:
        raise ValueError("sides must be non-negative")
    return width * height


def circle(radius):
    """Area of a circle of the given radius."""
    if radius < 0:
        raise ValueError("radius must be non-negative")
    return math.pi * radius
`;

const AREA_TESTS = `import math

import pytest

from shapes.area import circle, rectangle


def test_rectangle():
    assert rectangle(2, 3) == 6


def test_rectangle_rejects_negative():
    with pytest.raises(ValueError):
        rectangle(-1, 2)


class TestCircle:
    def test_unit_circle(self):
        assert circle(1) == pytest.approx(math.pi)

    def test_radius_two(self):
        assert circle(2) == pytest.approx(4 * math.pi)
`;

// As SWE-bench ships it: a git diff with an index line, touching only source files.
const AREA_PATCH = `diff --git a/shapes/area.py b/shapes/area.py
index 3b18e51..8c4d2a0 100644
--- a/shapes/area.py
+++ b/shapes/area.py
@@ -13,4 +13,4 @@ def circle(radius):
     """Area of a circle of the given radius."""
     if radius < 0:
         raise ValueError("radius must be non-negative")
-    return math.pi * radius
+    return math.pi * radius ** 2
`;

const CONVERT = `"""Distance conversions."""


def km_to_miles(km):
    return km * 0.621371


def miles_to_km(miles):
    return miles * 1.6
`;

const CONVERT_TESTS = `import pytest

from units.convert import km_to_miles, miles_to_km


def test_km_to_miles():
    assert km_to_miles(10) == pytest.approx(6.21371)


def test_miles_to_km_precise():
    assert miles_to_km(1) == pytest.approx(1.609344)
`;

/** A good record with its patch; the id lists are JSON-encoded strings as in SWE-bench. */
function shapesRecord(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    repo: "acme/shapes",
    instance_id: "acme__shapes-101",
    base_commit: "3b18e51c0ffee",
    problem_statement:
      "circle() returns the wrong area\n\n`shapes.area.circle(2)` returns 6.28 but a circle of radius 2 has area 4π ≈ 12.57. Only radius 1 looks right.",
    FAIL_TO_PASS: JSON.stringify(["tests/test_area.py::TestCircle::test_radius_two"]),
    PASS_TO_PASS: JSON.stringify([
      "tests/test_area.py::test_rectangle",
      "tests/test_area.py::test_rectangle_rejects_negative",
      "tests/test_area.py::TestCircle::test_unit_circle",
    ]),
    files: {
      "shapes/__init__.py": "",
      "shapes/area.py": AREA,
      "tests/__init__.py": "",
      "tests/test_area.py": AREA_TESTS,
    },
    test_commands: ["pytest -rA tests/test_area.py"],
    patch: AREA_PATCH,
    version: "1.0",
    ...overrides,
  };
}

/** A good record without a patch; plain lists, a title and difficulty given. */
const UNITS_RECORD = {
  instance_id: "Acme__Units.202",
  title: "miles_to_km() is imprecise",
  problem_statement: "miles_to_km(1) gives 1.6; it should use the exact factor 1.609344.",
  FAIL_TO_PASS: ["tests/test_convert.py::test_miles_to_km_precise"],
  PASS_TO_PASS: ["tests/test_convert.py::test_km_to_miles"],
  files: {
    "units/__init__.py": "",
    "units/convert.py": CONVERT,
    "tests/__init__.py": "",
    "tests/test_convert.py": CONVERT_TESTS,
  },
  test_commands: ["python -m pytest tests/test_convert.py"],
  difficulty: "easy",
  max_turns: 12,
};

function withoutField(record: Record<string, unknown>, field: string): Record<string, unknown> {
  const copy = { ...record };
  delete copy[field];
  return copy;
}

const JSONL = [
  JSON.stringify(shapesRecord()),
  JSON.stringify(UNITS_RECORD),
  JSON.stringify(
    withoutField(shapesRecord({ instance_id: "acme__shapes-103" }), "problem_statement"),
  ),
  JSON.stringify(shapesRecord({
    instance_id: "acme__shapes-104",
    FAIL_TO_PASS: [
      "tests/test_area.py::TestCircle::test_radius_three",
      "tests/test_gone.py::test_x",
    ],
  })),
  JSON.stringify(shapesRecord({
    instance_id: "acme__shapes-105",
    files: {
      ...shapesRecord().files as Record<string, string>,
      "../outside.py": "",
      "/etc/x.py": "",
    },
  })),
  "",
  JSON.stringify(
    shapesRecord({ instance_id: "acme__shapes-106", test_commands: ["tox -e py311"] }),
  ),
  '{"instance_id": "acme__shapes-107", "problem_statement": ',
].join("\n");

async function withTemp(fn: (dir: string) => Promise<void> | void): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-import-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("taskIdFor() lowercases and maps other characters to '-'", () => {
  assert.equal(taskIdFor("Acme__Units.202"), "acme__units-202");
  assert.equal(taskIdFor("django/django#11099"), "django-django-11099");
});

Deno.test("convertRecord() decodes JSON-encoded id lists and makes the id files the graded tests", () => {
  const result = convertRecord(shapesRecord());
  assert.ok(result.ok);
  const { spec, patch } = result.task;
  assert.equal(spec.id, "acme__shapes-101");
  assert.equal(spec.title, "circle() returns the wrong area");
  assert.equal(spec.runner, "pytest");
  assert.equal(spec.kind, "feature");
  assert.equal(spec.difficulty, "medium");
  assert.deepEqual(spec.visible_tests, ["tests/test_area.py"]);
  assert.deepEqual(spec.protected_paths, ["tests/test_area.py"]);
  assert.deepEqual(spec.hidden_tests, []);
  assert.deepEqual(spec.fail_to_pass, ["tests/test_area.py::TestCircle::test_radius_two"]);
  assert.equal(spec.pass_to_pass.length, 3);
  assert.equal(spec.solution, "solution.patch");
  assert.equal(patch, AREA_PATCH);
});

Deno.test("convertRecord() rejects parametrized ids and shell-chained commands", () => {
  const result = convertRecord(shapesRecord({
    FAIL_TO_PASS: ["tests/test_area.py::test_rectangle[2-3]"],
    test_commands: ["pytest tests/ && curl example.com"],
  }));
  assert.ok(!result.ok);
  assert.equal(result.problems.length, 2);
  assert.match(result.problems[0], /^test_commands\[0\]: .* uses shell syntax/);
  assert.match(result.problems[1], /^FAIL_TO_PASS\[0\]: .* is parametrized/);
});

Deno.test("importSwebench() imports the good records and reports each bad one with its line", async () => {
  await withTemp((dir) => {
    const out = join(dir, "tasks");
    const outcomes = importSwebench(JSONL, out);
    assert.deepEqual(outcomes.map((o) => [o.line, o.ok]), [
      [1, true],
      [2, true],
      [3, false],
      [4, false],
      [5, false],
      [7, false],
      [8, false],
    ]);
    const byLine = new Map(outcomes.map((o) => [o.line, o]));
    assert.deepEqual(byLine.get(3)!.problems, [
      "problem_statement: required field is missing; add it",
    ]);
    assert.equal(byLine.get(3)!.instance_id, "acme__shapes-103");
    assert.match(
      byLine.get(4)!.problems[0],
      /test_radius_three" is not defined in "tests\/test_area.py"/,
    );
    assert.match(byLine.get(4)!.problems[1], /names "tests\/test_gone.py", which is not in files/);
    assert.match(
      byLine.get(5)!.problems.join("\n"),
      /path "\.\.\/outside\.py" escapes the repository/,
    );
    assert.match(byLine.get(5)!.problems.join("\n"), /path "\/etc\/x\.py" is absolute/);
    assert.match(
      byLine.get(7)!.problems[0],
      /^test_commands\[0\]: "tox -e py311" is not a pytest command/,
    );
    assert.match(byLine.get(8)!.problems[0], /^not valid JSON: /);
    assert.equal(byLine.get(8)!.instance_id, null);

    // Only the good tasks are on disk, no staging folders are left, and both load.
    assert.deepEqual(readdirSync(out).sort(), ["acme__shapes-101", "acme__units-202"]);
    const shapes = loadTask(join(out, "acme__shapes-101"));
    assert.equal(readFileSync(shapes.solutionPath!, "utf8"), AREA_PATCH);
    assert.equal(readFileSync(join(shapes.repoDir, "shapes/area.py"), "utf8"), AREA);
    assert.ok(!existsSync(shapes.hiddenDir));
    const units = loadTask(join(out, "acme__units-202"));
    assert.equal(units.spec.title, "miles_to_km() is imprecise");
    assert.equal(units.spec.difficulty, "easy");
    assert.equal(units.spec.limits.max_turns, 12);
    assert.equal(units.solutionPath, null);
  });
});

Deno.test("importSwebench() never overwrites an existing task folder", async () => {
  await withTemp((dir) => {
    mkdirSync(join(dir, "acme__shapes-101"));
    const outcomes = importSwebench(JSON.stringify(shapesRecord()), dir);
    assert.equal(outcomes.length, 1);
    assert.ok(!outcomes[0].ok);
    assert.match(outcomes[0].problems[0], /already exists and is not overwritten/);
    assert.deepEqual(readdirSync(join(dir, "acme__shapes-101")), []);
  });
});

Deno.test("importSwebench() rejects a test in both lists and a path that is a file and a folder", async () => {
  await withTemp((dir) => {
    const both = "tests/test_area.py::test_rectangle";
    const files = {
      ...shapesRecord().files as Record<string, string>,
      "shapes": "",
      "shapes/x.py": "",
    };
    const outcomes = importSwebench(
      [
        JSON.stringify(shapesRecord({ FAIL_TO_PASS: [both], PASS_TO_PASS: [both] })),
        JSON.stringify(shapesRecord({ files })),
      ].join("\n"),
      dir,
    );
    assert.deepEqual(outcomes.map((o) => o.problems), [
      [`PASS_TO_PASS: test "${both}" is also in FAIL_TO_PASS; keep it in one list`],
      ['files: path "shapes" is both a file and a folder; keep one'],
    ]);
    assert.deepEqual(readdirSync(dir), []);
  });
});

pytestTest("validateTask() passes imported tasks, with and without a reference patch", async () => {
  await withTemp(async (dir) => {
    const out = join(dir, "tasks");
    const outcomes = importSwebench(JSONL, out);
    assert.equal(outcomes.filter((o) => o.ok).length, 2);
    const work = join(dir, "work");
    const env = await Environment.open({ tasksDir: out, workRoot: work });
    const withPatch = await validateTask(env, "acme__shapes-101");
    assert.deepEqual(withPatch.problems, []);
    assert.ok(withPatch.ok);
    // No reference patch: only "fail_to_pass fails and pass_to_pass passes before" is checked.
    const withoutPatch = await validateTask(env, "acme__units-202");
    assert.deepEqual(withoutPatch.problems, []);
    assert.ok(withoutPatch.ok);
    // The grader really runs the visible tests: the reference patch resolves the task.
    const task = env.task("acme__shapes-101");
    const graded = await env.grade(task, AREA_PATCH);
    assert.deepEqual(graded.fail_to_pass, {
      passed: 1,
      total: 1,
      tests: { "tests/test_area.py::TestCircle::test_radius_two": "passed" },
    });
    assert.equal(graded.pass_to_pass.passed, 3);
  });
});
