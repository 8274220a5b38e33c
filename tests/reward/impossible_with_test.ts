/**
 * An impossible grade changes a check of every `fail_to_pass` test, those inside plain `with`
 * blocks too (they must run when the test passes).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gradePatch } from "../../src/reward/grade.ts";
import { computeReward } from "../../src/reward/reward.ts";
import { FACTS } from "./_corpus.ts";
import { TASKS_DIR, withEnv } from "./_grading.ts";
import { pytestTest } from "../_pytest.ts";

pytestTest(
  "gradePatch() makes every fail_to_pass test impossible, checks in `with` blocks included",
  async () => {
    await withEnv(async (env) => {
      const task = env.task("py-geometry-tolerance");
      const patch = readFileSync(
        join(TASKS_DIR, "py-geometry-tolerance", "solution.patch"),
        "utf8",
      );
      const grade = await gradePatch(task, patch, {
        sandbox: env.sandbox,
        workRoot: env.workRoot,
        snapshot: env.snapshot(task),
        impossible: true,
      });
      assert.equal(computeReward(grade, FACTS).total, 0);
      // Before, only the checks at the top of a test body were changed: the two tests whose value
      // checks sit in `with tolerance(...)` blocks passed with the reference.
      for (
        const name of ["test_orientation_follows_tolerance", "test_centroid_follows_tolerance"]
      ) {
        assert.equal(
          grade.fail_to_pass.tests[`tests/test_tolerance_hidden.py::${name}`],
          "failed",
          JSON.stringify(grade.fail_to_pass.tests),
        );
      }
    });
  },
);
