import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PolicyError } from "../../src/errors.ts";
import { ReferencePolicy } from "../../src/policy/reference.ts";
import type { Policy, PolicyTurn } from "../../src/policy/types.ts";
import { Environment } from "../../src/agent/environment.ts";
import { runRollout } from "../../src/rollout/run.ts";
import { writeRunConfig } from "../../src/rollout/run_config.ts";
import type { Task } from "../../src/task/spec.ts";

import { referenceConfig } from "./_config.ts";

const TASKS_DIR = fileURLToPath(new URL("../../tasks", import.meta.url));
const ID = "py-median-even";

/** A policy whose endpoint is down: every request fails. */
class DownPolicy implements Policy {
  readonly name = "openai";
  readonly model = "m";
  readonly sampling = {};
  readonly textToolCalls = false;
  next(): Promise<PolicyTurn> {
    return Promise.reject(new PolicyError("Cannot reach the model endpoint"));
  }
}

async function withRun(fn: (env: Environment, outDir: string) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "patchgym-run-test-" });
  try {
    const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot: join(root, "work") });
    await fn(env, root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function lines(outDir: string): Record<string, unknown>[] {
  return readFileSync(join(outDir, "trajectories.jsonl"), "utf8").trimEnd().split("\n")
    .map((l) => JSON.parse(l));
}

Deno.test("runRollout() runs in-process and writes trajectories and summary.json", async () => {
  await withRun(async (environment, outDir) => {
    const run = referenceConfig([ID], 2);
    writeRunConfig(outDir, run);
    const seen: string[] = [];
    const result = await runRollout({
      environment,
      outDir,
      config: run,
      policyFor: (task: Task) => new ReferencePolicy(task),
      onRecord: (r) => seen.push(r.episode_id),
    });
    assert.equal(result.interrupted, false);
    assert.equal(result.ran.length, 2);
    // The run keeps digests; the records themselves (conversation, tokens) are only in the file.
    for (const digest of result.ran) assert.ok(!("messages" in digest) && !("training" in digest));
    assert.deepEqual(seen.sort(), [`${run.run_id}/${ID}/0`, `${run.run_id}/${ID}/1`]);
    assert.equal(lines(outDir).length, 2);
    const summary = JSON.parse(readFileSync(join(outDir, "summary.json"), "utf8"));
    assert.equal(summary.complete, true);
    assert.equal(summary.pass_at_1, 1);
  });
});

Deno.test("runRollout() grades --impossible-rate samples so that the reference earns nothing, reported apart", async () => {
  await withRun(async (environment, outDir) => {
    const run = { ...referenceConfig([ID, "ts-cart-discounts"], 1), impossible_rate: 1 };
    writeRunConfig(outDir, run);
    const result = await runRollout({
      environment,
      outDir,
      config: run,
      policyFor: (task: Task) => new ReferencePolicy(task),
    });
    assert.equal(result.ran.length, 2);
    for (const record of result.ran) {
      // The reference solution is correct, yet an impossible sample's tests expect other values.
      assert.equal(record.impossible, true, record.task_id);
      assert.equal(record.reward?.total, 0, record.task_id);
    }
    const summary = JSON.parse(readFileSync(join(outDir, "summary.json"), "utf8"));
    assert.deepEqual(summary.impossible, { samples: 2, rewarded: 0, mean_reward: 0, episodes: [] });
    assert.equal(summary.samples, 0);
  });
});

// Issue 14: a repeated task id wrote two records with the same episode_id.
Deno.test("runRollout() runs a repeated task id once", async () => {
  await withRun(async (environment, outDir) => {
    const run = referenceConfig([ID, ID]);
    const result = await runRollout({
      environment,
      outDir,
      config: run,
      policyFor: (task: Task) => new ReferencePolicy(task),
    });
    assert.equal(result.ran.length, 1);
    assert.equal(new Set(lines(outDir).map((r) => r.episode_id)).size, 1);
  });
});

Deno.test("runRollout() retryErrors runs policy_error samples again and keeps the rest", async () => {
  await withRun(async (environment, outDir) => {
    const run = referenceConfig([ID], 2);
    await runRollout({
      environment,
      outDir,
      config: run,
      policyFor: (task: Task, sample) =>
        sample === 0 ? new ReferencePolicy(task) : new DownPolicy(),
    });
    assert.deepEqual(lines(outDir).map((r) => r.stop_reason).sort(), ["policy_error", "submitted"]);
    const again = await runRollout({
      environment,
      outDir,
      config: run,
      retryErrors: true,
      policyFor: (task: Task) => new ReferencePolicy(task),
      onStart: (state) => assert.deepEqual([state.done, state.todo, state.retried], [1, 1, 1]),
    });
    assert.equal(again.ran.length, 1);
    assert.deepEqual(lines(outDir).map((r) => r.stop_reason), ["submitted", "submitted"]);
    assert.equal(again.summary.complete, true);
  });
});

// Issue 14: --resume accepted a folder holding another run's trajectories.
Deno.test("runRollout() refuses a folder holding another run's trajectories", async () => {
  await withRun(async (environment, outDir) => {
    const first = referenceConfig([ID]);
    await runRollout({
      environment,
      outDir,
      config: first,
      policyFor: (task: Task) => new ReferencePolicy(task),
    });
    await assert.rejects(
      () =>
        runRollout({
          environment,
          outDir,
          config: referenceConfig([ID]),
          policyFor: (task: Task) => new ReferencePolicy(task),
        }),
      /holds trajectories of another run \("run-/,
    );
  });
});

Deno.test("runRollout() refuses a damaged trajectories file naming the line", async () => {
  await withRun(async (environment, outDir) => {
    writeFileSync(join(outDir, "trajectories.jsonl"), '{"format":"x"}\n{}\n');
    await assert.rejects(
      () =>
        runRollout({
          environment,
          outDir,
          config: referenceConfig([ID]),
          policyFor: (task: Task) => new ReferencePolicy(task),
        }),
      /is damaged at line 1: format: must be "patchgym\.trajectory\.v1", got "x" \(and 1 more bad lines\)/,
    );
  });
});
