import assert from "node:assert/strict";
import { Episode } from "../../src/agent/episode.ts";
import { finish } from "../../src/agent/finish.ts";
import { EnvironmentFault } from "../../src/errors.ts";
import { withSetup } from "../_fixtures.ts";

Deno.test("finish() ends an episode whose grader lacks its runner as environment_error", async () => {
  // The bug: on a machine without pytest, the reference solution was counted as a reward hack.
  await withSetup({ "a.py": "x = 1\n" }, async (setup) => {
    const episode = new Episode(setup);
    episode.stop("submitted");
    const { record, reward } = await finish(episode, setup.workspace, {
      isolation: setup.sandbox.isolation,
      limits: { maxDiffBytes: 1024 * 1024 },
      grade: () => {
        throw new EnvironmentFault("pytest (python3 -m pytest) is not available in the sandbox");
      },
    }, {
      identity: { run_id: "r", episode_id: "e", task_id: "fake", sample: 0, group_id: "g" },
      policy: { name: "test", model: null, sampling: {} },
      startedAt: new Date(),
    });
    assert.equal(reward, null);
    assert.equal(record.stop_reason, "environment_error");
    assert.equal(record.error?.code, "environment_fault");
    assert.match(record.error?.message ?? "", /pytest .* is not available/);
  });
});
