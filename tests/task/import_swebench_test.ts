import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "../../src/agent/environment.ts";
import { validateTask } from "../../src/rollout/validate.ts";
import {
  convertRecord,
  importSwebench,
  mapTestCommand,
  taskIdFor,
} from "../../src/task/import_swebench.ts";
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

Deno.test("convertRecord() rejects shell-chained commands and accepts parametrized ids", () => {
  const result = convertRecord(shapesRecord({
    FAIL_TO_PASS: ["tests/test_area.py::test_rectangle[2-3]"],
    test_commands: ["pytest tests/ && curl example.com"],
  }));
  assert.ok(!result.ok);
  assert.equal(result.problems.length, 1);
  assert.match(result.problems[0], /^test_commands\[0\]: .* uses shell syntax/);
  const parametrized = convertRecord(shapesRecord({
    FAIL_TO_PASS: ["tests/test_area.py::test_rectangle[2-3]"],
  }));
  assert.ok(parametrized.ok);
  assert.deepEqual(parametrized.task.spec.fail_to_pass, [
    "tests/test_area.py::test_rectangle[2-3]",
  ]);
});

Deno.test("convertRecord() notes that python -m pytest runs with patchgym's interpreter", () => {
  // Issue 16: AReno's "python -m pytest" commands were refused by the python3-only allowlist.
  const result = convertRecord(shapesRecord({
    test_commands: ["python -m pytest -rA tests/test_area.py", "pytest tests/test_area.py"],
  }));
  assert.ok(result.ok);
  assert.deepEqual(result.notes, [
    'test command "python -m pytest -rA tests/test_area.py" runs as "python3 -m pytest -rA tests/test_area.py" with the interpreter patchgym runs',
    'test command "pytest tests/test_area.py" runs as "python3 -m pytest tests/test_area.py" with the interpreter patchgym runs',
  ]);
  assert.equal(mapTestCommand("PYTHONPATH=. python3.11 -m pytest x"), "python3 -m pytest x");
});

Deno.test("importSwebench() imports the good records and reports each bad one with its line", async () => {
  await withTemp(async (dir) => {
    const out = join(dir, "tasks");
    const outcomes = await importSwebench(JSONL, out);
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
  await withTemp(async (dir) => {
    mkdirSync(join(dir, "acme__shapes-101"));
    const outcomes = await importSwebench(JSON.stringify(shapesRecord()), dir);
    assert.equal(outcomes.length, 1);
    assert.ok(!outcomes[0].ok);
    assert.match(outcomes[0].problems[0], /already exists and is not overwritten/);
    assert.deepEqual(readdirSync(join(dir, "acme__shapes-101")), []);
  });
});

Deno.test("importSwebench() rejects a test in both lists and a path that is a file and a folder", async () => {
  await withTemp(async (dir) => {
    const both = "tests/test_area.py::test_rectangle";
    const files = {
      ...shapesRecord().files as Record<string, string>,
      "shapes": "",
      "shapes/x.py": "",
    };
    const outcomes = await importSwebench(
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

pytestTest(
  "validateTask() passes an imported task with a reference patch and calls one without unverified",
  async () => {
    await withTemp(async (dir) => {
      const out = join(dir, "tasks");
      const outcomes = await importSwebench(JSONL, out);
      assert.equal(outcomes.filter((o) => o.ok).length, 2);
      const work = join(dir, "work");
      const env = await Environment.open({ tasksDir: out, workRoot: work });
      const withPatch = await validateTask(env, "acme__shapes-101");
      assert.deepEqual(withPatch.problems, []);
      assert.ok(withPatch.ok);
      assert.equal(withPatch.status, "valid");
      // No reference patch: the unchanged repository checks out, but solvability is untested
      // (issue 16: such tasks used to be reported valid).
      const withoutPatch = await validateTask(env, "acme__units-202");
      assert.equal(withoutPatch.status, "unverified");
      assert.equal(withoutPatch.ok, false);
      assert.deepEqual(withoutPatch.problems, [
        "no reference patch, so nothing shows the task can be solved; add solution.patch",
      ]);
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
  },
);

// Real SWE-bench records: a tiny git repository stands in for the clone.

const GEOMETRY_BASE: Record<string, string> = {
  "geometry/__init__.py": "",
  "geometry/area.py": `import math


def rectangle(width, height):
    return width * height


def circle(radius):
    return math.pi * radius
`,
  "tests/__init__.py": "",
  "tests/test_area.py": `from geometry.area import rectangle


def test_rectangle():
    assert rectangle(2, 3) == 6
`,
  "tests/test_perimeter.py": `def test_square_perimeter():
    assert 4 * 2 == 8
`,
};

const GEOMETRY_TESTS: Record<string, string> = {
  "tests/test_area.py": `import math

import pytest

from geometry.area import circle, rectangle
from tests.radii import RADII


def test_rectangle():
    assert rectangle(2, 3) == 6


def test_circle_radius_two():
    assert circle(2) == pytest.approx(4 * math.pi)


@pytest.mark.parametrize("radius", RADII)
def test_circle_area(radius):
    assert circle(radius) == pytest.approx(math.pi * radius * radius)
`,
  "tests/radii.py": "RADII = [0, 3]\n",
};

const GEOMETRY_FIX: Record<string, string> = {
  "geometry/area.py": GEOMETRY_BASE["geometry/area.py"].replace(
    "math.pi * radius\n",
    "math.pi * radius ** 2\n",
  ),
};

function git(dir: string, ...args: string[]): string {
  const out = new Deno.Command("git", {
    args: ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com", ...args],
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

/** A clone of "acme/geometry" under `repos`, and a real SWE-bench record for it. */
function geometryClone(repos: string): Record<string, string> {
  const dir = join(repos, "acme__geometry");
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q");
  writeFilesUnder(dir, GEOMETRY_BASE);
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "base");
  const base = git(dir, "rev-parse", "HEAD").trim();
  const diffOf = (files: Record<string, string>) => {
    writeFilesUnder(dir, files);
    git(dir, "add", "-N", ".");
    const diff = git(dir, "diff");
    git(dir, "reset", "-q", "--hard");
    git(dir, "clean", "-qfd");
    return diff;
  };
  const testPatch = diffOf(GEOMETRY_TESTS);
  const patch = diffOf(GEOMETRY_FIX);
  // A later commit, so the importer must check out the base commit rather than the tip.
  writeFilesUnder(dir, { "NEWS.md": "later\n" });
  git(dir, "add", "-A");
  git(dir, "commit", "-qm", "later");
  return {
    repo: "acme/geometry",
    instance_id: "acme__geometry-12",
    base_commit: base,
    patch,
    test_patch: testPatch,
    problem_statement:
      "circle() returns the circumference-like pi * r, not the area\n\nIt should be pi r^2.",
    hints_text: "",
    created_at: "2024-01-02T03:04:05Z",
    version: "1.0",
    FAIL_TO_PASS: JSON.stringify([
      "tests/test_area.py::test_circle_radius_two",
      "tests/test_area.py::test_circle_area[3]",
    ]),
    PASS_TO_PASS: JSON.stringify([
      "tests/test_area.py::test_rectangle",
      "tests/test_area.py::test_circle_area[0]",
      "tests/test_perimeter.py::test_square_perimeter",
    ]),
    environment_setup_commit: base,
  };
}

function writeFilesUnder(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
}

Deno.test("importSwebench() imports a real SWE-bench record from a clone: base commit, hidden test patch, gold patch", async () => {
  await withTemp(async (dir) => {
    const repos = join(dir, "repos");
    const record = geometryClone(repos);
    const out = join(dir, "tasks");
    const [outcome] = await importSwebench(JSON.stringify(record), out, { reposDir: repos });
    assert.deepEqual(outcome.problems, []);
    assert.equal(outcome.id, "acme__geometry-12");
    const task = loadTask(join(out, "acme__geometry-12"));
    const { spec } = task;
    assert.deepEqual(spec.hidden_tests, ["tests/test_area.py"]);
    assert.deepEqual(spec.visible_tests, ["tests/test_area.py", "tests/test_perimeter.py"]);
    assert.deepEqual(spec.protected_paths, ["tests/test_area.py", "tests/test_perimeter.py"]);
    // A helper the test patch adds is hidden with the tests, put in place only at grading.
    assert.deepEqual(spec.hidden_data, ["tests/radii.py"]);
    assert.ok(!existsSync(join(task.repoDir, "tests/radii.py")));
    assert.equal(spec.runner, "pytest");
    // The agent sees the test file at the base commit; the patched one is hidden.
    assert.equal(
      readFileSync(join(task.repoDir, "tests/test_area.py"), "utf8"),
      GEOMETRY_BASE["tests/test_area.py"],
    );
    assert.equal(
      readFileSync(join(task.hiddenDir, "tests/test_area.py"), "utf8"),
      GEOMETRY_TESTS["tests/test_area.py"],
    );
    assert.ok(!existsSync(join(task.repoDir, "NEWS.md")), "files of later commits are left out");
    assert.equal(readFileSync(task.solutionPath!, "utf8"), record.patch);
    assert.match(outcome.notes.join("\n"), /helper files hidden .*"tests\/radii.py"/);

    const env = await Environment.open({ tasksDir: out, workRoot: join(dir, "work") });
    const result = await validateTask(env, "acme__geometry-12");
    assert.deepEqual(result.problems, []);
    assert.equal(result.status, "valid");
  });
});

Deno.test("importSwebench() refuses real records it cannot build, saying why", async () => {
  await withTemp(async (dir) => {
    const repos = join(dir, "repos");
    const record = geometryClone(repos);
    const lines = [
      { ...record, repo: "acme/missing" },
      {
        ...record,
        instance_id: "acme__geometry-13",
        base_commit: "0123456789abcdef0123456789abcdef01234567",
      },
      {
        ...record,
        instance_id: "acme__geometry-14",
        FAIL_TO_PASS: '["test_circle (tests.test_area.AreaTest)"]',
      },
      { ...record, instance_id: "acme__geometry-15", test_patch: "not a patch" },
    ].map((r) => JSON.stringify(r)).join("\n");
    const outcomes = await importSwebench(lines, join(dir, "tasks"), { reposDir: repos });
    assert.deepEqual(outcomes.map((o) => o.ok), [false, false, false, false]);
    assert.match(outcomes[0].problems[0], /^repo: no clone of "acme\/missing" under /);
    assert.match(
      outcomes[1].problems[0],
      /^base_commit: commit "0123456789ab.*" is not in the clone/,
    );
    assert.match(outcomes[2].problems[0], /^FAIL_TO_PASS\[0\]: .* is a Django test-runner id/);
    assert.match(outcomes[3].problems[0], /^test_patch: not a patch/);
    const noRepos = await importSwebench(JSON.stringify(record), join(dir, "tasks"));
    assert.match(
      noRepos[0].problems[0],
      /^repo: .* needs a clone of its repository; pass --repos DIR/,
    );
  });
});
