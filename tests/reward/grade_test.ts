/**
 * The grader on real bundled tasks: the reference solution earns the full reward, and each way a
 * patch might game the tests (editing or planting test files, test configuration, exiting early
 * with a fake summary, skipping, deleting tests, unappliable or binary diffs) earns nothing.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { GradeResult } from "../../src/reward/grade.ts";
import { computeReward, type EpisodeFacts, type Reward } from "../../src/reward/reward.ts";
import { runTests } from "../../src/sandbox/test_runner.ts";
import type { Task } from "../../src/task/spec.ts";
import { applyFilePatches } from "../../src/patch/apply.ts";
import { parsePatch } from "../../src/patch/parse.ts";
import { writeFiles } from "../_fixtures.ts";
import type { Environment } from "../../src/agent/environment.ts";
import {
  DENO_TASK,
  patchOf,
  PYTEST_TASK,
  UNITTEST_TASK,
  withEnv,
  withRepoCopy,
} from "./_grading.ts";
import { pytestTest } from "../_pytest.ts";

const FACTS: EpisodeFacts = {
  submitted: true,
  submit_status: "solved",
  invalid_tool_calls: 0,
  turns: 3,
  patch_lines: 2,
  reference_patch_lines: 2,
};

function solution(task: Task): string {
  assert.ok(task.solutionPath, `task "${task.spec.id}" has a reference solution`);
  return readFileSync(task.solutionPath, "utf8");
}

/** Apply the task's reference solution to `dir`. */
async function applySolution(task: Task, dir: string): Promise<void> {
  const parsed = parsePatch(solution(task));
  assert.ok(parsed.ok);
  const applied = await applyFilePatches(dir, parsed.files);
  assert.ok(applied.ok, JSON.stringify(applied));
}

function edit(path: string, change: (text: string) => string): void {
  writeFileSync(path, change(readFileSync(path, "utf8")));
}

function reward(grade: GradeResult): Reward {
  return computeReward(grade, FACTS);
}

/** Every expected test passed and the default reward is 1. */
function assertFullReward(grade: GradeResult): void {
  assert.equal(grade.patch_applied, true, String(grade.patch_error));
  assert.equal(
    grade.fail_to_pass.passed,
    grade.fail_to_pass.total,
    JSON.stringify(grade.fail_to_pass),
  );
  assert.equal(
    grade.pass_to_pass.passed,
    grade.pass_to_pass.total,
    JSON.stringify(grade.pass_to_pass),
  );
  const r = reward(grade);
  assert.equal(r.total, 1);
  assert.equal(r.resolved, true);
}

/** No `fail_to_pass` test passed and the default reward is 0. */
function assertNoReward(grade: GradeResult): void {
  for (const [id, outcome] of Object.entries(grade.fail_to_pass.tests)) {
    assert.notEqual(outcome, "passed", `fail_to_pass test "${id}" passed`);
  }
  assert.equal(grade.fail_to_pass.passed, 0);
  const r = reward(grade);
  assert.equal(r.total, 0);
  assert.equal(r.resolved, false);
}

function outcomesOf(list: GradeResult["fail_to_pass"]): Set<string> {
  return new Set(Object.values(list.tests));
}

// ---- unittest task ----

Deno.test("gradePatch() gives the reference solution of a unittest task every test", async () => {
  await withEnv(async (env) => {
    const task = env.task(UNITTEST_TASK);
    const grade = await env.grade(task, solution(task));
    assertFullReward(grade);
    assert.equal(grade.fail_to_pass.total, task.spec.fail_to_pass.length);
    assert.equal(grade.pass_to_pass.total, task.spec.pass_to_pass.length);
    assert.deepEqual(grade.protected_paths_touched, []);
    assert.deepEqual(grade.binary_files_ignored, []);
    assert.equal(grade.patch_error, null);
    assert.equal(grade.run.report_found, true);
    // The must-fail canaries the grader adds fail, so the run's exit code is not 0.
    assert.deepEqual(grade.run.problems, []);
  });
});

Deno.test("gradePatch() fails every fail_to_pass test of an empty patch", async () => {
  await withEnv(async (env) => {
    const task = env.task(UNITTEST_TASK);
    const grade = await env.grade(task, "");
    assertNoReward(grade);
    assert.deepEqual(outcomesOf(grade.fail_to_pass), new Set(["failed"]));
    assert.equal(grade.pass_to_pass.passed, grade.pass_to_pass.total);
    assert.equal(grade.patch_applied, true);
    assert.notEqual(grade.run.exit_code, 0);
  });
});

// Issue 25: the failure output of a rewritten assertion was a wall of spaces and carets, with the
// file, line and assertion cut off.
Deno.test("gradePatch() shows a failing test's own line in its failure output", async () => {
  await withEnv(async (env) => {
    const grade = await env.grade(env.task(UNITTEST_TASK), "");
    const id = "tests/test_median_hidden.py::MedianEvenTest::test_median_even_count";
    const text = grade.failures[id];
    assert.ok(text !== undefined, Object.keys(grade.failures).join(", "));
    assert.match(
      text,
      /File "tests\/test_median_hidden\.py", line 8, in test_median_even_count\n {4}self\.assertEqual\(median\(\[4, 1, 3, 2\]\), 2\.5\)\n/,
    );
    assert.match(text, /AssertionError: 3 != 2\.5/);
    assert.ok(!/ {20}/.test(text), text);
  });
});

Deno.test("gradePatch() restores a visible test file the patch made trivially pass", async () => {
  await withEnv(async (env) => {
    const task = env.task(UNITTEST_TASK);
    const patch = await patchOf(env, task, (dir) => {
      edit(
        join(dir, "tests/test_summary.py"),
        (text) => text.replace(/self\.assert\w+\(.*\)$/gm, "self.assertTrue(True)"),
      );
    });
    assert.match(patch, /\+\s+self\.assertTrue\(True\)/);
    const grade = await env.grade(task, patch);
    assertNoReward(grade);
    assert.deepEqual(grade.protected_paths_touched, ["tests/test_summary.py"]);
  });
});

Deno.test("gradePatch() runs the pristine visible tests and reports the protected edit", async () => {
  await withEnv(async (env) => {
    const task = env.task(UNITTEST_TASK);
    // With the real fix, a visible test file edited to fail must not cost anything: it is restored.
    const patch = await patchOf(env, task, async (dir) => {
      await applySolution(task, dir);
      edit(
        join(dir, "tests/test_summary.py"),
        (text) => text.replace(/self\.assert\w+\(.*\)$/gm, 'self.fail("edited")'),
      );
    });
    const grade = await env.grade(task, patch);
    assertFullReward(grade);
    assert.deepEqual(grade.protected_paths_touched, ["tests/test_summary.py"]);
    assert.deepEqual(reward(grade).components.protected_path_edits, ["tests/test_summary.py"]);
    const penalized = computeReward(grade, FACTS, {
      partial_credit: false,
      fail_to_pass_weight: 1,
      pass_to_pass_weight: 1,
      protected_edit_penalty: 0.25,
      invalid_call_penalty: 0,
    });
    assert.equal(penalized.total, 0.75);
  });
});

Deno.test("gradePatch() overwrites a hidden test file the patch planted with dummy tests", async () => {
  await withEnv(async (env) => {
    const task = env.task(UNITTEST_TASK);
    const hidden = task.spec.hidden_tests[0];
    const names = [...task.spec.fail_to_pass, ...task.spec.pass_to_pass]
      .filter((id) => id.startsWith(`${hidden}::`))
      .map((id) => id.split("::"));
    const dummy = `import unittest\n\n\nclass ${names[0][1]}(unittest.TestCase):\n` +
      names.map(([, , name]) => `    def ${name}(self):\n        pass\n`).join("\n");
    const patch = await patchOf(env, task, (dir) => writeFiles(dir, { [hidden]: dummy }));
    assert.match(patch, /new file mode/);
    const grade = await env.grade(task, patch);
    assertNoReward(grade);
    assert.deepEqual(outcomesOf(grade.fail_to_pass), new Set(["failed"]));
    assert.deepEqual(grade.protected_paths_touched, [hidden]);
  });
});

Deno.test("gradePatch() counts a fail_to_pass test the code under test skips as failed", async () => {
  await withEnv(async (env) => {
    const task = env.task(UNITTEST_TASK);
    const patch = await patchOf(env, task, (dir) => {
      edit(join(dir, "stats/summary.py"), (text) =>
        text.replace(
          "    middle = len(ordered) // 2\n",
          '    middle = len(ordered) // 2\n    if len(ordered) % 2 == 0:\n        import unittest\n        raise unittest.SkipTest("not applicable")\n',
        ));
    });
    const grade = await env.grade(task, patch);
    assertNoReward(grade);
    assert.deepEqual(outcomesOf(grade.fail_to_pass), new Set(["skipped"]));
  });
});

Deno.test("gradePatch() treats an early exit with a fake unittest summary as missing tests", async () => {
  await withEnv(async (env) => {
    const task = env.task(UNITTEST_TASK);
    const patch = await patchOf(env, task, (dir) => {
      edit(join(dir, "stats/__init__.py"), (text) =>
        text +
        '\nimport os, sys\nprint("Ran 10 tests in 0.001s\\n\\nOK")\nprint("Ran 10 tests in 0.001s\\n\\nOK", file=sys.stderr)\nsys.stdout.flush()\nsys.stderr.flush()\nos._exit(0)\n');
    });
    const grade = await env.grade(task, patch);
    assertNoReward(grade);
    assert.deepEqual(outcomesOf(grade.fail_to_pass), new Set(["missing"]));
    assert.deepEqual(outcomesOf(grade.pass_to_pass), new Set(["missing"]));
    assert.equal(grade.run.exit_code, 0);
    assert.equal(grade.run.report_found, false);
  });
});

Deno.test("gradePatch() restores test files the patch deleted", async () => {
  await withEnv(async (env) => {
    const task = env.task(UNITTEST_TASK);
    const patch = await patchOf(env, task, (dir) => {
      rmSync(join(dir, "tests"), { recursive: true });
    });
    assert.match(patch, /deleted file mode/);
    const grade = await env.grade(task, patch);
    assertNoReward(grade);
    // The visible tests ran from the pristine copies.
    assert.equal(grade.pass_to_pass.passed, grade.pass_to_pass.total);
    // Regression: tests/__init__.py is empty, so its deletion has no ---/+++ lines and went unreported.
    assert.deepEqual(grade.protected_paths_touched, ["tests/__init__.py", "tests/test_summary.py"]);
  });
});

Deno.test("gradePatch() reports a rename of a protected file and restores it", async () => {
  await withEnv(async (env) => {
    const task = env.task(UNITTEST_TASK);
    // Regression: a pure rename has no ---/+++ lines and escaped protected_paths_touched.
    const rename = "diff --git a/tests/test_summary.py b/tests/test_moved.py\n" +
      "similarity index 100%\nrename from tests/test_summary.py\nrename to tests/test_moved.py\n";
    const grade = await env.grade(task, rename + solution(task));
    assertFullReward(grade);
    assert.deepEqual(grade.protected_paths_touched, [
      "tests/test_moved.py",
      "tests/test_summary.py",
    ]);
  });
});

Deno.test("gradePatch() reports an edit of a protected file whose name git quoted", async () => {
  await withEnv(async (env) => {
    const task = env.task(UNITTEST_TASK);
    // Regression: grade.ts read `"a/tests/t\303\251st.py"` as a literal quoted name, so a
    // protected file with a non-ASCII name escaped protected_path_edits.
    const quoted = 'diff --git "a/tests/t\\303\\251st.py" "b/tests/t\\303\\251st.py"\n' +
      "new file mode 100644\n" +
      '--- /dev/null\n+++ "b/tests/t\\303\\251st.py"\n@@ -0,0 +1 @@\n+x = 1\n';
    const grade = await env.grade(task, solution(task) + quoted);
    assertFullReward(grade);
    assert.deepEqual(grade.protected_paths_touched, ["tests/tést.py"]);
  });
});

Deno.test("gradePatch() grades the text part of a git diff with a binary file", async () => {
  await withEnv(async (env) => {
    const task = env.task(UNITTEST_TASK);
    const withFix = await patchOf(env, task, async (dir) => {
      await applySolution(task, dir);
      writeFiles(dir, { "stats/blob.bin": new Uint8Array([0, 1, 2, 255]) });
    });
    assert.match(withFix, /^Binary files \/dev\/null and b\/stats\/blob\.bin differ$/m);
    const grade = await env.grade(task, withFix);
    assertFullReward(grade);
    assert.deepEqual(grade.binary_files_ignored, ["stats/blob.bin"]);

    const binaryOnly = await patchOf(
      env,
      task,
      (dir) => writeFiles(dir, { "stats/blob.bin": new Uint8Array([0, 7]) }),
    );
    const onlyGrade = await env.grade(task, binaryOnly);
    assert.equal(onlyGrade.patch_applied, true);
    assert.deepEqual(onlyGrade.binary_files_ignored, ["stats/blob.bin"]);
    assertNoReward(onlyGrade);
  });
});

Deno.test("gradePatch() keeps the text part of a plain diff -ruN patch with a binary file", async () => {
  await withEnv(async (env) => {
    const task = env.task(UNITTEST_TASK);
    // Regression: GNU diff prints a lone "Binary files" line between sections, and the whole
    // patch (the real fix included) was dropped as one binary section named "(unknown)".
    const patch = "Binary files a/stats/blob.bin and b/stats/blob.bin differ\n" + solution(task);
    const grade = await env.grade(task, patch);
    assertFullReward(grade);
    assert.deepEqual(grade.binary_files_ignored, ["stats/blob.bin"]);
  });
});

Deno.test("gradePatch() fails every test of a patch that does not apply", async () => {
  await withEnv(async (env) => {
    const task = env.task(UNITTEST_TASK);
    // The real fix plus a section whose context is not in the file: nothing is applied.
    const stale = "--- a/stats/__init__.py\n+++ b/stats/__init__.py\n@@ -1,2 +1,2 @@\n" +
      "-this line is not in the file\n+neither is this\n the end\n";
    for (const patch of [solution(task) + stale, "Here is my fix: I changed median().\n"]) {
      const grade = await env.grade(task, patch);
      assert.equal(grade.patch_applied, false);
      assert.ok(grade.patch_error && grade.patch_error.length > 0);
      assert.deepEqual(outcomesOf(grade.fail_to_pass), new Set(["missing"]));
      assert.deepEqual(outcomesOf(grade.pass_to_pass), new Set(["missing"]));
      assert.equal(grade.pass_to_pass.passed, 0);
      assert.equal(grade.run.exit_code, -1);
      assertNoReward(grade);
      assert.equal(reward(grade).components.patch_applied, false);
    }
  });
});

// ---- pytest task ----

/**
 * A plugin module in the package that makes `textkit.ngrams` importable and reports every test
 * as passed; it only takes effect if test configuration loads it.
 */
const CHEAT_PLUGIN = `import sys, types
import pytest

fake = types.ModuleType("textkit.ngrams")
fake.ngrams = fake.ngram_counts = fake.top_ngrams = lambda *args, **kwargs: None
sys.modules["textkit.ngrams"] = fake


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    report.outcome = "passed"
    report.longrepr = None
`;

/** The task's tests run straight on `dir`, with no restoring: what the attack would get ungraded. */
async function runUnguarded(
  env: Environment,
  task: Task,
  dir: string,
  trusted: string[] = [],
): Promise<Map<string, string>> {
  const run = await runTests(env.sandbox, {
    runner: task.spec.runner,
    dir,
    files: [...task.spec.visible_tests, ...task.spec.hidden_tests],
    timeoutMs: 30_000,
    scratchDir: env.workRoot,
    trusted,
  });
  return run.tests;
}

pytestTest("gradePatch() gives the reference solution of a pytest task every test", async () => {
  await withEnv(async (env) => {
    const task = env.task(PYTEST_TASK);
    assert.equal(task.spec.runner, "pytest");
    const grade = await env.grade(task, solution(task));
    assertFullReward(grade);
    const empty = await env.grade(task, "");
    assertNoReward(empty);
  });
});

pytestTest(
  "gradePatch() deletes conftest.py and sitecustomize.py files that fake passing tests",
  async () => {
    await withEnv(async (env) => {
      const task = env.task(PYTEST_TASK);
      const conftest = CHEAT_PLUGIN;
      const mutate = (dir: string) => {
        writeFiles(dir, {
          "conftest.py": conftest,
          "tests/conftest.py": conftest,
          "textkit/conftest.py": conftest,
          "sitecustomize.py": conftest,
          "usercustomize.py": conftest,
        });
      };
      // Control: copied into the hidden test's place by hand and trusted as if pristine (the
      // reporter flags hooks from untrusted code), the conftest does fake every test.
      await withRepoCopy(env, task, async (dir) => {
        mutate(dir);
        for (const path of task.spec.hidden_tests) {
          writeFiles(dir, { [path]: readFileSync(join(task.hiddenDir, path)) });
        }
        const tests = await runUnguarded(env, task, dir, [
          "conftest.py",
          "tests/conftest.py",
          "textkit/conftest.py",
        ]);
        for (const id of task.spec.fail_to_pass) assert.equal(tests.get(id), "passed", id);
      });
      const grade = await env.grade(task, await patchOf(env, task, mutate));
      assertNoReward(grade);
      assert.deepEqual(grade.protected_paths_touched, [
        "conftest.py",
        "sitecustomize.py",
        "tests/conftest.py",
        "textkit/conftest.py",
        "usercustomize.py",
      ]);
    });
  },
);

pytestTest(
  "gradePatch() deletes pytest configuration files that load a faking plugin",
  async () => {
    await withEnv(async (env) => {
      const task = env.task(PYTEST_TASK);
      // Regression: .pytest.ini, pytest.toml and .pytest.toml were not treated as test configuration.
      const ini = "[pytest]\naddopts = -p textkit.cheat\n";
      const toml = '[pytest]\naddopts = ["-p", "textkit.cheat"]\n';
      // Only pytest 9+ reads the TOML files, so the control runs for the ini files alone.
      const configs: [string, string, boolean][] = [
        ["pytest.ini", ini, true],
        [".pytest.ini", ini, true],
        ["tox.ini", ini, true],
        ["pytest.toml", toml, false],
        [".pytest.toml", toml, false],
      ];
      await Promise.all(configs.map(async ([name, config, control]) => {
        const mutate = (dir: string) =>
          writeFiles(dir, { [name]: config, "textkit/cheat.py": CHEAT_PLUGIN });
        if (control) {
          await withRepoCopy(env, task, async (dir) => {
            mutate(dir);
            for (const path of task.spec.hidden_tests) {
              writeFiles(dir, { [path]: readFileSync(join(task.hiddenDir, path)) });
            }
            // Trusted as if pristine: the reporter flags hooks from untrusted code on its own.
            const tests = await runUnguarded(env, task, dir, ["textkit/cheat.py"]);
            for (const id of task.spec.fail_to_pass) {
              assert.equal(tests.get(id), "passed", `${name}: ${id}`);
            }
          });
        }
        const grade = await env.grade(task, await patchOf(env, task, mutate));
        assertNoReward(grade);
        assert.deepEqual(grade.protected_paths_touched, [name], name);
      }));
    });
  },
);

pytestTest(
  "gradePatch() treats an early exit with a fake pytest summary as missing tests",
  async () => {
    await withEnv(async (env) => {
      const task = env.task(PYTEST_TASK);
      const total = task.spec.fail_to_pass.length + task.spec.pass_to_pass.length;
      const patch = await patchOf(env, task, (dir) => {
        edit(
          join(dir, "textkit/__init__.py"),
          (text) =>
            text + `\nimport os\nprint("${total} passed in 0.01s", flush=True)\nos._exit(0)\n`,
        );
      });
      const grade = await env.grade(task, patch);
      assertNoReward(grade);
      assert.deepEqual(outcomesOf(grade.fail_to_pass), new Set(["missing"]));
      assert.equal(grade.run.exit_code, 0);
      assert.equal(grade.run.report_found, false);
    });
  },
);

// ---- deno test task ----

Deno.test("gradePatch() gives the reference solution of a deno_test task every test", async () => {
  await withEnv(async (env) => {
    const task = env.task(DENO_TASK);
    assert.equal(task.spec.runner, "deno_test");
    assertFullReward(await env.grade(task, solution(task)));
    const empty = await env.grade(task, "");
    assertNoReward(empty);
    assert.deepEqual(outcomesOf(empty.fail_to_pass), new Set(["failed"]));
    assert.equal(empty.pass_to_pass.passed, empty.pass_to_pass.total);
  });
});

Deno.test("gradePatch() treats Deno.exit(0) with a fake summary at module top level as missing tests", async () => {
  await withEnv(async (env) => {
    const task = env.task(DENO_TASK);
    const total = task.spec.fail_to_pass.length + task.spec.pass_to_pass.length;
    const patch = await patchOf(env, task, async (dir) => {
      await applySolution(task, dir);
      edit(
        join(dir, "src/discounts.ts"),
        (text) => text + `\nconsole.log("ok | ${total} passed | 0 failed (5ms)");\nDeno.exit(0);\n`,
      );
    });
    const grade = await env.grade(task, patch);
    assertNoReward(grade);
    assert.deepEqual(outcomesOf(grade.fail_to_pass), new Set(["missing"]));
    assert.deepEqual(outcomesOf(grade.pass_to_pass), new Set(["missing"]));
  });
});

Deno.test("gradePatch() restores TypeScript test files and deletes a planted deno.json", async () => {
  await withEnv(async (env) => {
    const task = env.task(DENO_TASK);
    const hidden = task.spec.hidden_tests[0];
    const dummy = task.spec.fail_to_pass.concat(task.spec.pass_to_pass)
      .filter((id) => id.startsWith(`${hidden}::`))
      .map((id) => `Deno.test(${JSON.stringify(id.slice(hidden.length + 2))}, () => {});\n`)
      .join("");
    const patch = await patchOf(env, task, (dir) => {
      writeFiles(dir, {
        [hidden]: dummy,
        "tests/extra_test.ts": 'Deno.test("extra", () => {});\n',
        "deno.json": JSON.stringify({ test: { exclude: ["tests/"] } }),
      });
      rmSync(join(dir, task.spec.visible_tests[0]));
    });
    const grade = await env.grade(task, patch);
    assertNoReward(grade);
    assert.deepEqual(outcomesOf(grade.fail_to_pass), new Set(["failed"]));
    assert.equal(grade.pass_to_pass.passed, grade.pass_to_pass.total);
    assert.deepEqual(
      grade.protected_paths_touched,
      ["deno.json", hidden, "tests/cart_test.ts", "tests/extra_test.ts"].sort(),
    );
  });
});
