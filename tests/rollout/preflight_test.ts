import assert from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Environment } from "../../src/agent/environment.ts";
import { preflight, skippedWarning } from "../../src/rollout/preflight.ts";

const TASKS_DIR = fileURLToPath(new URL("../../tasks", import.meta.url));
const PASSING = "tests/test_median_hidden.py::MedianEvenTest::test_median_odd_unchanged";

/** Two copies of py-median-even, the second with a fail_to_pass test that already passes. */
async function withTasks(fn: (env: Environment) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "patchgym-preflight-test-" });
  try {
    for (const id of ["good", "free-reward"]) {
      const dir = join(root, "tasks", id);
      cpSync(join(TASKS_DIR, "py-median-even"), dir, { recursive: true });
      const spec = JSON.parse(readFileSync(join(dir, "task.json"), "utf8"));
      spec.id = id;
      if (id === "free-reward") {
        spec.pass_to_pass = spec.pass_to_pass.filter((t: string) => t !== PASSING);
        spec.fail_to_pass.push(PASSING);
      }
      writeFileSync(join(dir, "task.json"), JSON.stringify(spec));
    }
    await fn(
      await Environment.open({ tasksDir: join(root, "tasks"), workRoot: join(root, "work") }),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("preflight() skips a task whose fail_to_pass tests already pass and keeps the rest", async () => {
  await withTasks(async (env) => {
    const seen: string[] = [];
    const result = await preflight(env, ["free-reward", "good"], {
      concurrency: 2,
      onTask: (id, skipped) => seen.push(`${id}:${skipped}`),
    });
    assert.deepEqual(result.ready, ["good"]);
    assert.deepEqual(result.skipped, [{ task_id: "free-reward", already_passing: [PASSING] }]);
    assert.deepEqual(seen.sort(), ["free-reward:true", "good:false"]);
  });
});

Deno.test("skippedWarning() counts and names each skipped task, and is null for none", () => {
  assert.equal(skippedWarning([], 3), null);
  assert.equal(
    skippedWarning([{ task_id: "t1", already_passing: ["a.py::T::test_x"] }], 3),
    'Skipping 1 of 3 tasks whose fail_to_pass tests already pass (doing nothing would earn their reward); run "deno task patchgym validate" for details:\n' +
      '  - t1: fail_to_pass "a.py::T::test_x" already passes on the unchanged repository',
  );
});

Deno.test("preflight() skips a task whose dependency environment is not built, saying how to build it", async () => {
  const root = await Deno.makeTempDir({ prefix: "patchgym-preflight-test-" });
  try {
    const env = await Environment.open({
      tasksDir: TASKS_DIR,
      workRoot: join(root, "work"),
      envCache: join(root, "empty-cache"),
    });
    const ids = ["js-outdated-prerelease-latest", "js-semver-caret-zero"];
    const result = await preflight(env, ids);
    assert.deepEqual(result.ready, ["js-semver-caret-zero"]);
    assert.equal(result.skipped.length, 1);
    assert.match(
      result.skipped[0].environment_error ?? "",
      /is not built .*; run "deno task patchgym env build .*js-outdated-prerelease-latest"/,
    );
    const warning = skippedWarning(result.skipped, 2)!;
    assert.match(
      warning,
      /^Skipping 1 of 2 tasks whose dependency environment cannot be used \(an environment error, not the task's\):\n {2}- js-outdated-prerelease-latest: the dependency environment/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
