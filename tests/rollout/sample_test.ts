import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { parseScript, ScriptedPolicy } from "../../src/policy/scripted.ts";
import { Environment } from "../../src/rollout/environment.ts";
import { runSample } from "../../src/rollout/sample.ts";

const TASKS_DIR = fileURLToPath(new URL("../../tasks", import.meta.url));

// Issue 10: an over-size final diff was read whole, graded and shipped back in the record.
Deno.test("runSample() grades a final diff over the cap as 0 with code diff_too_large", async () => {
  const root = await Deno.makeTempDir({ prefix: "patchgym-sample-" });
  try {
    const env = await Environment.open({
      tasksDir: TASKS_DIR,
      workRoot: root,
      limits: { maxDiffBytes: 1000 },
    });
    const policy = new ScriptedPolicy(parseScript(JSON.stringify([
      { tool: "write_file", arguments: { path: "big.txt", content: "z\n".repeat(1000) } },
      { tool: "submit", arguments: { status: "solved", summary: "done" } },
    ])));
    const record = await runSample(env, env.task("py-median-even"), policy, {
      run_id: "r",
      episode_id: "r/py-median-even/0",
      task_id: "py-median-even",
      sample: 0,
      group_id: "r/py-median-even",
    }, { limits: { max_turns: 2 } });
    // The model was told at submit; the episode then ran out of turns with the diff still too big.
    assert.equal(record.turns[1].tool?.code, "diff_too_large");
    assert.equal(record.stop_reason, "max_turns");
    assert.equal(record.error?.code, "diff_too_large");
    assert.match(record.error?.message ?? "", /"big\.txt" \(2\.0 KiB\)/);
    assert.equal(record.final_diff, "");
    assert.equal(record.reward?.total, 0);
    assert.equal(record.reward?.components.patch_applied, false);
    assert.deepEqual([...Deno.readDirSync(root)], []);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
