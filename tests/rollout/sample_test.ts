import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { parseScript, ScriptedPolicy } from "../../src/policy/scripted.ts";
import { Environment } from "../../src/agent/environment.ts";
import { runSample, type SampleOptions } from "../../src/rollout/sample.ts";
import type { TrajectoryRecord } from "../../src/trajectory/record.ts";

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

const IDENTITY = {
  run_id: "r",
  episode_id: "r/py-median-even/0",
  task_id: "py-median-even",
  sample: 0,
  group_id: "r/py-median-even",
};

const INSPECT_STEP = { tool: "inspect_tree", arguments: {} };

/** Run one scripted sample of `taskId` from `tasksDir` in a temp workspace root. */
async function scripted(
  steps: unknown[],
  options: SampleOptions,
  tasksDir = TASKS_DIR,
): Promise<TrajectoryRecord> {
  const root = await Deno.makeTempDir({ prefix: "patchgym-sample-" });
  try {
    const env = await Environment.open({ tasksDir, workRoot: root });
    const policy = new ScriptedPolicy(parseScript(JSON.stringify(steps)));
    const record = await runSample(env, env.task("py-median-even"), policy, IDENTITY, options);
    assert.deepEqual([...Deno.readDirSync(root)], []);
    return record;
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("runSample() stops at token_limit and still grades the episode", async () => {
  const record = await scripted([INSPECT_STEP, INSPECT_STEP, INSPECT_STEP], {
    limits: { max_total_tokens: 200 },
  });
  assert.equal(record.stop_reason, "token_limit");
  assert.equal(record.turns.length, 1);
  assert.equal(record.reward?.total, 0);
});

Deno.test("runSample() stops at time_limit on the injected wall clock", async () => {
  const clock = { ms: 0 };
  const record = await scripted([INSPECT_STEP, INSPECT_STEP, INSPECT_STEP], {
    limits: { max_wall_s: 60 },
    now: () => clock.ms,
    onTurn: () => {
      clock.ms += 40_000;
    },
  });
  assert.equal(record.stop_reason, "time_limit");
  assert.equal(record.turns.length, 2);
  assert.equal(record.timings.wall_ms, 80_000);
  assert.ok(record.reward !== null);
});

// Issue 12: a symlink in a task repository ended the whole rollout with a stack trace.
Deno.test("runSample() turns a workspace that cannot be made into an environment_error record", async () => {
  const tasksDir = await Deno.makeTempDir({ prefix: "patchgym-sample-tasks-" });
  try {
    await new Deno.Command("cp", { args: ["-r", `${TASKS_DIR}/py-median-even`, tasksDir] })
      .output();
    Deno.symlinkSync("/etc/hostname", `${tasksDir}/py-median-even/repo/link`);
    const record = await scripted([INSPECT_STEP], {}, tasksDir);
    assert.equal(record.stop_reason, "environment_error");
    assert.equal(record.error?.code, "unexpected");
    assert.match(record.error?.message ?? "", /only regular files and folders are allowed/);
    assert.equal(record.reward, null);
    assert.equal(record.turns.length, 0);
  } finally {
    await Deno.remove(tasksDir, { recursive: true });
  }
});
