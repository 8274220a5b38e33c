import assert from "node:assert/strict";
import { patchgymCommand } from "../../src/hint.ts";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TaskError } from "../../src/errors.ts";
import {
  displayPath,
  listTaskIds,
  loadTask,
  loadTasks,
  requireTaskIds,
} from "../../src/task/load.ts";
import { writeFiles } from "../_fixtures.ts";

const VISIBLE = `import unittest


class A(unittest.TestCase):
    def test_a(self):
        pass

    def test_b(self):
        pass
`;

const HIDDEN = `import unittest


class H(unittest.TestCase):
    def test_x(self):
        pass

    def test_y(self):
        pass
`;

/** A valid task.json for a task with folder name `id`. */
function validSpec(id: string): Record<string, unknown> {
  return {
    id,
    title: "Fix it",
    language: "python",
    difficulty: "easy",
    kind: "one_line_bug",
    statement: "Make the tests pass",
    runner: "unittest",
    visible_tests: ["tests/test_a.py"],
    hidden_tests: ["tests/test_hidden.py"],
    fail_to_pass: ["tests/test_hidden.py::H::test_x"],
    pass_to_pass: ["tests/test_a.py::A::test_a"],
  };
}

/** Files of a valid task folder, relative to the tasks root. */
function validFiles(
  id: string,
  spec: Record<string, unknown> = validSpec(id),
): Record<string, string> {
  return {
    [`${id}/task.json`]: JSON.stringify(spec, null, 2),
    [`${id}/repo/app.py`]: "x = 1\n",
    [`${id}/repo/tests/test_a.py`]: VISIBLE,
    [`${id}/hidden/tests/test_hidden.py`]: HIDDEN,
    [`${id}/solution.patch`]: "--- a/app.py\n+++ b/app.py\n",
  };
}

/** The temporary folder of the running {@linkcode withTasks}, as the loader shows it. */
let shownBase: string | null = null;
/** The folder of the running {@linkcode withTasks}. */
let tasksBase = "";

/**
 * Run `fn` with a temp folder holding `tasks/` (the tasks root, given to `fn`). Paths in it are named
 * with {@linkcode at}, and {@linkcode problemsOf} shows messages as a user who runs from that folder
 * sees them: `tasks/<id>/task.json: ...`. Never by changing the working folder: test files run in
 * one process (`--parallel`), and the others would see it change.
 */
async function withTasks(
  files: Record<string, string>,
  fn: (tasksRoot: string) => void,
): Promise<void> {
  tasksBase = Deno.realPathSync(await Deno.makeTempDir({ prefix: "patchgym-tasks-" }));
  try {
    writeFiles(join(tasksBase, "tasks"), files);
    shownBase = displayPath(tasksBase);
    fn(join(tasksBase, "tasks"));
  } finally {
    shownBase = null;
    await Deno.remove(tasksBase, { recursive: true });
  }
}

/** `path` (relative) in the running {@linkcode withTasks}'s folder. */
function at(path: string): string {
  return join(tasksBase, path);
}

/** The problems a TaskError lists, asserting its code. */
function problemsOf(fn: () => unknown, code: "task_invalid" | "task_not_found" = "task_invalid") {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof TaskError, String(error));
    assert.equal(error.code, code);
    assert.equal(error.message, error.problems.join("\n"));
    const prefix = `${shownBase}/`;
    return shownBase === null
      ? error.problems
      : error.problems.map((p) => p.replaceAll(prefix, ""));
  }
  assert.fail("expected a TaskError");
}

/** Marks a file or folder of the valid task for deletion in {@linkcode problemsAfter}. */
const DELETE = "\0delete";

/**
 * Load `tasks/<id>` from a valid task changed by `edit` (which may edit the spec and add,
 * replace or DELETE files), returning the problems.
 */
async function problemsAfter(
  edit: (spec: Record<string, unknown>, files: Record<string, string>) => void,
  id = "t1",
): Promise<string[]> {
  const spec = validSpec(id);
  const files: Record<string, string> = {};
  edit(spec, files);
  const deleted = Object.keys(files).filter((path) => files[path] === DELETE);
  const written = Object.fromEntries(Object.entries(files).filter(([, c]) => c !== DELETE));
  let problems: string[] = [];
  await withTasks({ ...validFiles(id, spec), ...written }, (root) => {
    for (const path of deleted) rmSync(join(root, path), { recursive: true });
    problems = problemsOf(() => loadTask(at(`tasks/${id}`)));
  });
  return problems;
}

Deno.test("loadTask() loads a valid task with defaults filled in", async () => {
  await withTasks(validFiles("t1"), (root) => {
    const task = loadTask(at("tasks/t1"));
    assert.equal(task.dir, at("tasks/t1"));
    assert.equal(task.dir, join(Deno.realPathSync(root), "t1"));
    assert.equal(task.repoDir, join(task.dir, "repo"));
    assert.equal(task.hiddenDir, join(task.dir, "hidden"));
    assert.equal(task.solutionPath, join(task.dir, "solution.patch"));
    assert.deepEqual(task.spec.protected_paths, []);
    assert.deepEqual(task.spec.limits, { max_turns: 30, command_timeout_s: 20 });
    assert.equal(task.spec.solution, "solution.patch");
  });
});

Deno.test("loadTask() accepts a null solution", async () => {
  const spec = { ...validSpec("t1"), solution: null };
  const files = validFiles("t1", spec);
  delete files["t1/solution.patch"];
  await withTasks(files, () => {
    assert.equal(loadTask(at("tasks/t1")).solutionPath, null);
  });
});

Deno.test("loadTask() reports a missing task.json", async () => {
  await withTasks({ "t1/repo/a.py": "" }, () => {
    assert.deepEqual(problemsOf(() => loadTask(at("tasks/t1")), "task_not_found"), [
      "tasks/t1/task.json: file not found; a task folder needs a task.json (see docs/tasks.md)",
    ]);
  });
});

Deno.test("loadTask() reports invalid JSON", async () => {
  await withTasks({ ...validFiles("t1"), "t1/task.json": '{"id": "t1",}' }, () => {
    const [problem, ...rest] = problemsOf(() => loadTask(at("tasks/t1")));
    assert.deepEqual(rest, []);
    assert.match(problem, /^tasks\/t1\/task\.json: not valid JSON: .+; fix the syntax$/);
  });
});

Deno.test("loadTask() reports an unknown field", async () => {
  assert.deepEqual(
    await problemsAfter((spec) => {
      spec.extra = 1;
    }),
    ['tasks/t1/task.json: (top level): unknown field "extra"; remove it or check the spelling'],
  );
  assert.deepEqual(
    await problemsAfter((spec) => {
      spec.limits = { max_turn: 3, timeout: 1 };
    }),
    [
      'tasks/t1/task.json: limits: unknown fields "max_turn", "timeout"; remove them or check the spelling',
    ],
  );
});

Deno.test("loadTask() reports a missing required field", async () => {
  assert.deepEqual(
    await problemsAfter((spec) => {
      delete spec.statement;
    }),
    ["tasks/t1/task.json: statement: required field is missing; add it"],
  );
});

// Issue 14: a wrong type was reported as "required field is missing".
Deno.test("loadTask() reports a wrong type as a wrong type", async () => {
  assert.deepEqual(
    await problemsAfter((spec) => {
      spec.statement = 42;
      spec.limits = { max_turns: "30" };
    }),
    [
      "tasks/t1/task.json: statement: expected string, got a number (42); fix the type",
      'tasks/t1/task.json: limits.max_turns: expected number, got a string ("30"); fix the type',
    ],
  );
});

// Issue 14: schema errors hid the other errors although every problem is promised at once.
Deno.test("loadTask() reports file problems beside schema problems", async () => {
  const problems = await problemsAfter((spec, files) => {
    spec.difficulty = "trivial";
    spec.visible_tests = ["tests/test_missing.py"];
    files["t1/solution.patch"] = DELETE;
  });
  assert.deepEqual(problems, [
    'tasks/t1/task.json: difficulty: must be one of "easy", "medium", "hard"',
    'tasks/t1/task.json: visible_tests[0]: "tests/test_missing.py" not found in repo/; add it or fix the path',
    'tasks/t1/task.json: pass_to_pass[0]: test "tests/test_a.py::A::test_a" is not defined in the visible or hidden tests; fix the id or add the test',
    'tasks/t1/task.json: solution: "solution.patch" not found in the task folder; add the reference patch or set null',
  ]);
});

Deno.test("loadTask() reports a bad enum value", async () => {
  assert.deepEqual(
    await problemsAfter((spec) => {
      spec.runner = "vitest";
    }),
    [
      'tasks/t1/task.json: runner: must be one of "unittest", "pytest", "deno_test", "node_test", "jest"',
    ],
  );
});

Deno.test("loadTask() reports bad paths and test ids with their index", async () => {
  const problems = await problemsAfter((spec) => {
    spec.visible_tests = ["tests/test_a.py", "../escape.py"];
    spec.pass_to_pass = ["no-separator"];
  });
  assert.deepEqual(problems, [
    'tasks/t1/task.json: visible_tests[1]: must be a relative path inside the repository without ".."',
    'tasks/t1/task.json: pass_to_pass[0]: must look like "path/to/test_file.py::Class::test_name" or "file_test.ts::name"',
  ]);
});

Deno.test("loadTask() reports every schema problem at once", async () => {
  const problems = await problemsAfter((spec) => {
    delete spec.title;
    spec.difficulty = "trivial";
    spec.fail_to_pass = [];
  });
  assert.equal(problems.length, 3, problems.join("\n"));
  assert.ok(problems.includes("tasks/t1/task.json: title: required field is missing; add it"));
  assert.ok(
    problems.includes('tasks/t1/task.json: difficulty: must be one of "easy", "medium", "hard"'),
  );
  assert.ok(problems.some((p) => p.startsWith("tasks/t1/task.json: fail_to_pass: ")));
});

Deno.test("loadTask() reports an id that does not match the folder", async () => {
  assert.deepEqual(
    await problemsAfter((spec) => {
      spec.id = "other";
    }),
    ['tasks/t1/task.json: id: "other" does not match the folder name "t1"; rename one of them'],
  );
});

Deno.test("loadTask() reports a runner that cannot test the language", async () => {
  assert.deepEqual(
    await problemsAfter((spec) => {
      spec.runner = "deno_test";
    }).then((problems) => problems.slice(0, 1)), // Then the Python ids are not found either.
    ['tasks/t1/task.json: runner: "deno_test" cannot test a python task; use a python runner'],
  );
  assert.deepEqual(
    await problemsAfter((spec) => {
      spec.runner = "node_test";
    }).then((problems) => problems.slice(0, 1)),
    ['tasks/t1/task.json: runner: "node_test" cannot test a python task; use a python runner'],
  );
  assert.deepEqual(
    await problemsAfter((spec) => {
      spec.language = "javascript";
    }),
    [
      'tasks/t1/task.json: runner: "unittest" cannot test a javascript task; use a javascript runner',
    ],
  );
  assert.deepEqual(
    await problemsAfter((spec) => {
      spec.language = "typescript";
    }),
    [
      'tasks/t1/task.json: runner: "unittest" cannot test a typescript task; use a typescript runner',
    ],
  );
});

Deno.test("loadTask() reports a missing repo/ folder", async () => {
  assert.deepEqual(
    await problemsAfter((_spec, files) => {
      files["t1/repo"] = DELETE;
    }),
    ["tasks/t1/task.json: repo/: folder not found; put the starting repository in tasks/t1/repo"],
  );
});

Deno.test("loadTask() reports missing visible and hidden test files", async () => {
  assert.deepEqual(
    await problemsAfter((spec, files) => {
      files["t1/repo/tests/test_a.py"] = DELETE;
      files["t1/hidden/tests/test_hidden.py"] = DELETE;
      spec.fail_to_pass = ["tests/test_hidden.py::H::test_x"];
      spec.pass_to_pass = [];
    }),
    [
      'tasks/t1/task.json: visible_tests[0]: "tests/test_a.py" not found in repo/; add it or fix the path',
      'tasks/t1/task.json: hidden_tests[0]: "tests/test_hidden.py" not found in hidden/; add it or fix the path',
      'tasks/t1/task.json: fail_to_pass[0]: test "tests/test_hidden.py::H::test_x" is not defined in the visible or hidden tests; fix the id or add the test',
    ],
  );
});

Deno.test("loadTask() reports a hidden test that is also in repo/ with the same content", async () => {
  assert.deepEqual(
    await problemsAfter((_spec, files) => {
      files["t1/repo/tests/test_hidden.py"] = HIDDEN;
    }),
    [
      'tasks/t1/task.json: hidden_tests[0]: "tests/test_hidden.py" also exists in repo/ with the same content, so the agent would see it; rename one',
    ],
  );
});

Deno.test("loadTask() accepts a hidden test that replaces an older version of a repo/ file", async () => {
  // As a SWE-bench test patch does: the agent sees the file as it was before the patch.
  const files = { ...validFiles("t1"), "t1/repo/tests/test_hidden.py": "import unittest\n" };
  await withTasks(files, () => {
    assert.deepEqual(loadTask(at("tasks/t1")).spec.hidden_tests, ["tests/test_hidden.py"]);
  });
});

Deno.test("loadTask() accepts a parametrized pytest id whose function is defined", async () => {
  const spec = {
    ...validSpec("t1"),
    runner: "pytest",
    fail_to_pass: ["tests/test_hidden.py::H::test_x[1-2]"],
  };
  await withTasks(validFiles("t1", spec), () => {
    assert.deepEqual(loadTask(at("tasks/t1")).spec.fail_to_pass, [
      "tests/test_hidden.py::H::test_x[1-2]",
    ]);
  });
  const wrong = { ...spec, fail_to_pass: ["tests/test_hidden.py::H::test_q[1-2]"] };
  await withTasks(validFiles("t1", wrong), () => {
    assert.match(problemsOf(() => loadTask(at("tasks/t1")))[0], /test_q\[1-2\]" is not defined/);
  });
});

Deno.test("loadTask() reports a fail_to_pass test that is not defined", async () => {
  assert.deepEqual(
    await problemsAfter((spec) => {
      spec.fail_to_pass = ["tests/test_hidden.py::H::test_x", "tests/test_hidden.py::H::test_z"];
    }),
    [
      'tasks/t1/task.json: fail_to_pass[1]: test "tests/test_hidden.py::H::test_z" is not defined in the visible or hidden tests; fix the id or add the test',
    ],
  );
});

Deno.test("loadTask() reports a pass_to_pass test that is not defined", async () => {
  const problems = await problemsAfter((spec) => {
    // Right name, wrong class: ids must match exactly.
    spec.pass_to_pass = ["tests/test_a.py::A::test_b", "tests/test_a.py::B::test_a"];
  });
  assert.deepEqual(problems, [
    'tasks/t1/task.json: pass_to_pass[1]: test "tests/test_a.py::B::test_a" is not defined in the visible or hidden tests; fix the id or add the test',
  ]);
});

Deno.test("loadTask() reports a test in both fail_to_pass and pass_to_pass", async () => {
  assert.deepEqual(
    await problemsAfter((spec) => {
      spec.pass_to_pass = ["tests/test_a.py::A::test_a", "tests/test_hidden.py::H::test_x"];
    }),
    [
      'tasks/t1/task.json: pass_to_pass: test "tests/test_hidden.py::H::test_x" is also in fail_to_pass; keep it in one list',
    ],
  );
});

Deno.test("loadTask() reports a missing reference solution", async () => {
  assert.deepEqual(
    await problemsAfter((_spec, files) => {
      files["t1/solution.patch"] = DELETE;
    }),
    [
      'tasks/t1/task.json: solution: "solution.patch" not found in the task folder; add the reference patch or set null',
    ],
  );
});

Deno.test("loadTask() reports several file problems at once", async () => {
  const problems = await problemsAfter((spec, files) => {
    spec.id = "t2";
    spec.pass_to_pass = ["tests/test_a.py::A::missing"];
    files["t1/solution.patch"] = DELETE;
    files["t1/repo/tests/test_hidden.py"] = HIDDEN;
  });
  assert.deepEqual(problems.map((p) => p.split(": ")[1]), [
    "id",
    "hidden_tests[0]",
    "pass_to_pass[0]",
    "solution",
  ]);
  assert.ok(problems.every((p) => p.startsWith("tasks/t1/task.json: ")));
});

Deno.test("loadTask() names the task.json by its absolute path outside the working directory", async () => {
  const base = await Deno.makeTempDir({ prefix: "patchgym-tasks-" });
  try {
    writeFiles(base, validFiles("t1"));
    rmSync(join(base, "t1/solution.patch"));
    const [problem] = problemsOf(() => loadTask(join(base, "t1")));
    assert.ok(problem.startsWith(`${join(base, "t1/task.json")}: solution: `), problem);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("loadTasks() loads tasks sorted by id, all or the ones asked for", async () => {
  await withTasks({ ...validFiles("b-task"), ...validFiles("a-task") }, (root) => {
    mkdirSync(join(root, "not-a-task"));
    writeFileSync(join(root, "README.md"), "");
    assert.deepEqual(listTaskIds(root), ["a-task", "b-task"]);
    assert.deepEqual(loadTasks(root).map((t) => t.spec.id), ["a-task", "b-task"]);
    assert.deepEqual(loadTasks(root, ["b-task"]).map((t) => t.spec.id), ["b-task"]);
  });
});

Deno.test("loadTasks() reports unknown ids", async () => {
  await withTasks(validFiles("a-task"), () => {
    assert.deepEqual(
      problemsOf(() => loadTasks(at("tasks"), ["a-task", "nope", "gone"]), "task_not_found"),
      [
        `tasks/nope: no such task; run "${patchgymCommand("tasks")}" to list the 1 available`,
        `tasks/gone: no such task; run "${patchgymCommand("tasks")}" to list the 1 available`,
      ],
    );
  });
});

Deno.test("loadTasks() collects the problems of every task", async () => {
  const files: Record<string, string> = {
    ...validFiles("a-task"),
    ...validFiles("b-task"),
    ...validFiles("c-task"),
    "c-task/task.json": JSON.stringify({ ...validSpec("c-task"), kind: "chore" }),
  };
  delete files["a-task/solution.patch"];
  await withTasks(files, () => {
    const problems = problemsOf(() => loadTasks(at("tasks")));
    assert.equal(problems.length, 2, problems.join("\n"));
    assert.match(problems[0], /^tasks\/a-task\/task\.json: solution: /);
    assert.match(problems[1], /^tasks\/c-task\/task\.json: kind: must be one of "one_line_bug", /);
  });
});

Deno.test("listTaskIds() reports a missing tasks folder", async () => {
  await withTasks({}, () => {
    assert.deepEqual(problemsOf(() => listTaskIds(at("no-such-dir")), "task_not_found"), [
      "no-such-dir: tasks folder not found",
    ]);
  });
});

Deno.test("displayPath() shows paths under the working directory relative to it", () => {
  const cwd = Deno.cwd();
  assert.equal(displayPath(join(cwd, "tasks/x/task.json")), "tasks/x/task.json");
  assert.equal(displayPath("/definitely/elsewhere/task.json"), "/definitely/elsewhere/task.json");
  assert.equal(displayPath(cwd), cwd);
});

Deno.test("loadTask() loads the bundled task py-median-even", () => {
  const task = loadTask(join(import.meta.dirname!, "../../tasks/py-median-even"));
  assert.equal(task.spec.id, "py-median-even");
  assert.equal(task.spec.runner, "unittest");
  assert.equal(task.spec.fail_to_pass.length, 3);
  assert.ok(task.solutionPath?.endsWith("tasks/py-median-even/solution.patch"));
});

// Issue 25: an empty --tasks-dir, one task's folder or a repository's root read as "0 tasks".
Deno.test("requireTaskIds() says no task folders were found and where tasks are expected", async () => {
  await withTasks(validFiles("a-task"), (root) => {
    mkdirSync(at("empty"));
    assert.deepEqual(problemsOf(() => requireTaskIds(at("empty")), "task_not_found"), [
      "empty: no task folders found; tasks are expected as empty/<id>/task.json, one folder per task (docs/tasks.md)",
    ]);
    assert.match(
      problemsOf(() => requireTaskIds(join(root, "a-task")), "task_not_found")[0],
      /^tasks\/a-task: no task folders found; .*it is one task's folder: name the folder that holds it, e\.g\. --tasks-dir tasks --tasks a-task$/,
    );
    assert.match(
      problemsOf(() => requireTaskIds(tasksBase), "task_not_found")[0],
      /did you mean --tasks-dir tasks\?$/,
    );
    assert.match(
      problemsOf(() => loadTasks(at("empty"), ["a-task"]), "task_not_found")[0],
      /^empty: no task folders found/,
    );
    assert.deepEqual(requireTaskIds(root), ["a-task"]);
  });
});

// Seen on a real repository: test classes that take their test methods from a mixin, in the same
// file or imported from another module, were refused as naming tests that do not exist.
Deno.test("loadTask() takes test methods a class inherits from a mixin, here or imported", async () => {
  const mixins = `import unittest

from . import ImportedMixin


class LocalMixin:
    def test_local(self):
        pass


class LocalTest(unittest.TestCase, LocalMixin):
    pass


class ImportedTest(unittest.TestCase, ImportedMixin):
    pass
`;
  assert.deepEqual(
    await problemsAfter((spec, files) => {
      files["t1/repo/tests/test_a.py"] = mixins;
      spec.pass_to_pass = [
        "tests/test_a.py::LocalTest::test_local",
        "tests/test_a.py::ImportedTest::test_anything",
        "tests/test_a.py::LocalTest::test_missing",
      ];
    }),
    [
      'tasks/t1/task.json: pass_to_pass[2]: test "tests/test_a.py::LocalTest::test_missing" is not defined in the visible or hidden tests; fix the id or add the test',
    ],
  );
});
