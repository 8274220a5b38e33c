import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Environment } from "../../src/agent/environment.ts";
import { validateTask } from "../../src/rollout/validate.ts";
import { buildDenoEnvironment } from "../../src/env/deno.ts";
import { buildNpmEnvironment } from "../../src/env/npm.ts";

const TASKS_DIR = fileURLToPath(new URL("../../tasks", import.meta.url));
const ID = "py-median-even";
const HIDDEN = "tests/test_median_hidden.py::MedianEvenTest";

/**
 * Copy bundled task `id` into a temp task folder, let `breakTask` change the copy, and run `fn`
 * with an environment over it; everything is removed afterwards.
 */
async function withTaskCopy(
  id: string,
  breakTask: (taskDir: string) => void,
  fn: (env: Environment) => Promise<void>,
): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "patchgym-validate-test-" });
  try {
    const taskDir = join(root, "tasks", id);
    cpSync(join(TASKS_DIR, id), taskDir, { recursive: true });
    breakTask(taskDir);
    await fn(
      await Environment.open({ tasksDir: join(root, "tasks"), workRoot: join(root, "work") }),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

/** A problem without the failure output after its colon (the test's own error lines). */
function withoutDetail(problem: string): string {
  return problem.replace(/(reference patch|unchanged repository): .*$/s, "$1");
}

/** Rewrite the copy's task.json. */
function editSpec(taskDir: string, change: (spec: Record<string, string[]>) => void): void {
  const path = join(taskDir, "task.json");
  const spec = JSON.parse(readFileSync(path, "utf8"));
  change(spec);
  writeFileSync(path, JSON.stringify(spec, null, 2));
}

/** Move test `id` from one expected list to the other. */
function move(
  spec: Record<string, string[]>,
  id: string,
  to: "fail_to_pass" | "pass_to_pass",
): void {
  const from = to === "fail_to_pass" ? "pass_to_pass" : "fail_to_pass";
  assert.ok(spec[from].includes(id), `${id} is in ${from}`);
  spec[from] = spec[from].filter((t) => t !== id);
  spec[to].push(id);
}

Deno.test("validateTask() accepts good bundled Python and TypeScript tasks", async () => {
  const root = await Deno.makeTempDir({ prefix: "patchgym-validate-test-" });
  try {
    const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot: root });
    for (const id of [ID, "ts-cart-discounts"]) {
      const result = await validateTask(env, id);
      assert.deepEqual(result.problems, [], id);
      assert.equal(result.ok, true);
      assert.equal(result.status, "valid");
      assert.equal(result.task_id, id);
      assert.equal(typeof result.test_ms, "number");
      // Every fail_to_pass test of these tasks is judged outside the jail, so none is unguarded.
      assert.equal(result.guard?.outside, result.guard?.total, id);
      assert.deepEqual(result.guard?.unguarded, []);
    }
    // Every scoring copy was removed.
    assert.deepEqual([...Deno.readDirSync(root)], []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("validateTask() lists each fail_to_pass test a solution that does not fix the bug leaves failing", async () => {
  const breakTask = (taskDir: string) => {
    // A reference patch that applies but only touches a docstring.
    writeFileSync(
      join(taskDir, "solution.patch"),
      '--- a/stats/__init__.py\n+++ b/stats/__init__.py\n@@ -1,1 +1,1 @@\n-"""Small descriptive statistics helpers."""\n+"""Descriptive statistics helpers."""\n',
    );
  };
  await withTaskCopy(ID, breakTask, async (env) => {
    const result = await validateTask(env, ID);
    assert.equal(result.ok, false);
    // Each problem ends with the test's own failure, so the reader sees why.
    assert.ok(result.problems.every((p) => /patch: .*Error/.test(p)), result.problems.join("\n"));
    assert.deepEqual(result.problems.map(withoutDetail), [
      `fail_to_pass test "${HIDDEN}::test_median_even_count" is failed with the reference patch`,
      `fail_to_pass test "${HIDDEN}::test_median_two_values" is failed with the reference patch`,
      `fail_to_pass test "${HIDDEN}::test_summary_uses_even_median" is failed with the reference patch`,
    ]);
  });
});

Deno.test("validateTask() lists a fail_to_pass test that already passes", async () => {
  const breakTask = (taskDir: string) =>
    editSpec(taskDir, (spec) => move(spec, `${HIDDEN}::test_median_odd_unchanged`, "fail_to_pass"));
  await withTaskCopy(ID, breakTask, async (env) => {
    const result = await validateTask(env, ID);
    assert.equal(result.ok, false);
    assert.equal(result.status, "broken");
    assert.deepEqual(result.problems, [
      `fail_to_pass test "${HIDDEN}::test_median_odd_unchanged" already passes on the unchanged repository`,
    ]);
  });
});

Deno.test("validateTask() calls a sound task without a reference patch unverified, not valid", async () => {
  // Issue 16: a task with no reference patch was reported valid though solvability was untested.
  const breakTask = (taskDir: string) => {
    Deno.removeSync(join(taskDir, "solution.patch"));
    editSpec(taskDir, (spec) => (spec as Record<string, unknown>).solution = null);
  };
  await withTaskCopy(ID, breakTask, async (env) => {
    const result = await validateTask(env, ID);
    assert.equal(result.status, "unverified");
    assert.equal(result.ok, false);
    assert.deepEqual(result.problems, [
      "no reference patch, so nothing shows the task can be solved; add solution.patch",
    ]);
  });
});

Deno.test("validateTask() calls a task without a reference patch broken when its unchanged repository is", async () => {
  const breakTask = (taskDir: string) => {
    Deno.removeSync(join(taskDir, "solution.patch"));
    editSpec(taskDir, (spec) => {
      (spec as Record<string, unknown>).solution = null;
      move(spec, `${HIDDEN}::test_median_odd_unchanged`, "fail_to_pass");
    });
  };
  await withTaskCopy(ID, breakTask, async (env) => {
    const result = await validateTask(env, ID);
    assert.equal(result.status, "broken");
    assert.deepEqual(result.problems, [
      `fail_to_pass test "${HIDDEN}::test_median_odd_unchanged" already passes on the unchanged repository`,
    ]);
  });
});

Deno.test("validateTask() lists a pass_to_pass test that fails on the unchanged repository", async () => {
  const breakTask = (taskDir: string) =>
    editSpec(taskDir, (spec) => move(spec, `${HIDDEN}::test_median_two_values`, "pass_to_pass"));
  await withTaskCopy(ID, breakTask, async (env) => {
    const result = await validateTask(env, ID);
    assert.equal(result.ok, false);
    assert.deepEqual(result.problems.map(withoutDetail), [
      `pass_to_pass test "${HIDDEN}::test_median_two_values" is failed on the unchanged repository`,
    ]);
  });
});

Deno.test("validateTask() lists a pass_to_pass test the reference solution breaks", async () => {
  const breakTask = (taskDir: string) => {
    const path = join(taskDir, "solution.patch");
    const broken = readFileSync(path, "utf8") +
      "--- a/stats/__init__.py\n+++ b/stats/__init__.py\n@@ -1,3 +1,5 @@\n" +
      ' """Small descriptive statistics helpers."""\n from .summary import mean, median, summarize\n' +
      "+\n+mean = lambda values: 0\n \n";
    writeFileSync(path, broken);
  };
  await withTaskCopy(ID, breakTask, async (env) => {
    const result = await validateTask(env, ID);
    assert.equal(result.ok, false);
    assert.deepEqual(result.problems.map(withoutDetail), [
      `pass_to_pass test "tests/test_summary.py::MeanTest::test_mean_of_integers" is failed with the reference patch`,
      `pass_to_pass test "tests/test_summary.py::MeanTest::test_mean_empty_raises" is failed with the reference patch`,
    ]);
  });
});

Deno.test("validateTask() reports a reference patch that does not apply", async () => {
  const breakTask = (taskDir: string) => {
    const path = join(taskDir, "solution.patch");
    writeFileSync(
      path,
      readFileSync(path, "utf8").replace(
        "middle = len(ordered) // 2",
        "middle = len(ordered) >> 1",
      ),
    );
  };
  await withTaskCopy(ID, breakTask, async (env) => {
    const result = await validateTask(env, ID);
    assert.equal(result.ok, false);
    assert.equal(result.problems.length, 1);
    assert.match(result.problems[0], /^reference patch does not apply: .*stats\/summary\.py/);
  });
});

Deno.test("validateTask() lists the problems of a task that does not load instead of throwing", async () => {
  const breakTask = (taskDir: string) =>
    editSpec(taskDir, (spec) => {
      spec.fail_to_pass = ["tests/test_median_hidden.py::MedianEvenTest::test_not_there"];
      delete (spec as Record<string, unknown>).runner;
    });
  await withTaskCopy(ID, breakTask, async (env) => {
    const result = await validateTask(env, ID);
    assert.equal(result.ok, false);
    assert.equal(result.test_ms, null);
    assert.ok(result.problems.length > 0);
    assert.ok(result.problems.every((p) => p.includes("task.json")), result.problems.join("\n"));
    assert.ok(result.problems.some((p) => p.includes("runner")), result.problems.join("\n"));

    const absent = await validateTask(env, "no-such-task");
    assert.equal(absent.ok, false);
    assert.equal(absent.problems.length, 1);
    assert.match(absent.problems[0], /no such task/);
  });
});

Deno.test("validateTask() accepts the bundled node_test and jest tasks, with their npm environments", async () => {
  const root = await Deno.makeTempDir({ prefix: "patchgym-validate-test-" });
  try {
    const envCache = join(root, "env");
    const empty = await Environment.open({ tasksDir: TASKS_DIR, workRoot: root, envCache });
    const unbuilt = await validateTask(empty, "js-outdated-prerelease-latest");
    assert.equal(unbuilt.status, "environment_error");
    assert.match(
      unbuilt.problems[0],
      /is not built .*; run "deno task patchgym env build .*tasks\/js-outdated-prerelease-latest"/,
    );
    // Built from its package-lock.json (npm ci --ignore-scripts) into this test's own cache.
    const built = await buildNpmEnvironment(join(TASKS_DIR, "js-outdated-prerelease-latest/repo"), {
      cacheRoot: envCache,
      lockPath: join(TASKS_DIR, "js-outdated-prerelease-latest/env.lock"),
    }).catch((error: Error) => error);
    const ids = ["js-semver-caret-zero", "js-scheduler-fifo-ties", "js-toc-duplicate-anchors"];
    if (built instanceof Error) {
      console.warn(`validate_test: npm environment not built (${built.message}); skipping it`);
    } else {
      assert.equal(built.lockWritten, false, "the bundled env.lock matches its package-lock.json");
      ids.push("js-outdated-prerelease-latest");
    }
    // The jest tasks: jest 29 from their package-lock.json, in the same cache.
    for (const id of ["js-jest-duration-ms-unit", "js-jest-csv-escaped-quotes"]) {
      const jest = await buildNpmEnvironment(join(TASKS_DIR, id, "repo"), {
        cacheRoot: envCache,
        lockPath: join(TASKS_DIR, id, "env.lock"),
      }).catch((error: Error) => error);
      if (jest instanceof Error) {
        console.warn(`validate_test: npm environment of ${id} not built (${jest.message})`);
      } else {
        assert.equal(jest.lockWritten, false, `${id}: env.lock matches its package-lock.json`);
        ids.push(id);
      }
    }
    const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot: root, envCache });
    for (const id of ids) {
      const result = await validateTask(env, id);
      assert.deepEqual(result.problems, [], id);
      assert.equal(result.status, "valid", id);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("validateTask() accepts the bundled deno_test task with a Deno environment", async () => {
  const id = "ts-timeouts-numeric-seconds";
  const root = await Deno.makeTempDir({ prefix: "patchgym-validate-test-" });
  try {
    const envCache = join(root, "env");
    const empty = await Environment.open({ tasksDir: TASKS_DIR, workRoot: root, envCache });
    const unbuilt = await validateTask(empty, id);
    assert.equal(unbuilt.status, "environment_error");
    assert.match(
      unbuilt.problems[0],
      /is not built .*; run "deno task patchgym env build .*tasks\/ts-/,
    );
    // Built from its deno.lock (deno install --frozen) into this test's own cache.
    const built = await buildDenoEnvironment(join(TASKS_DIR, id, "repo"), {
      cacheRoot: envCache,
      lockPath: join(TASKS_DIR, id, "env.lock"),
    }).catch((error: Error) => error);
    if (built instanceof Error) {
      console.warn(`validate_test: Deno environment not built (${built.message}); skipping it`);
      return;
    }
    assert.equal(built.lockWritten, false, "the bundled env.lock matches its deno.lock");
    const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot: root, envCache });
    const result = await validateTask(env, id);
    assert.deepEqual(result.problems, []);
    assert.equal(result.status, "valid");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
