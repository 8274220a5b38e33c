import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Environment } from "../../src/agent/environment.ts";
import { ReferencePolicy } from "../../src/policy/reference.ts";
import { runRollout } from "../../src/rollout/run.ts";
import { poolAvailable, WorkerPool } from "../../src/rollout/worker_pool.ts";
import type { Task } from "../../src/task/spec.ts";
import { digestRecord } from "../../src/trajectory/digest.ts";

import { referenceConfig } from "./_config.ts";

const TASKS_DIR = fileURLToPath(new URL("../../tasks", import.meta.url));

/** Fields that carry a time, and so differ between any two runs. */
const TIMED = new Set(["timings", "latency_ms", "duration_ms"]);

/**
 * A record line without its timed fields, keys in the order the record has them; durations the
 * test runners print in their output ("Ran 3 tests in 0.010s", "ok (568µs)") are blanked too.
 */
function untimed(line: string): string {
  return JSON.stringify(
    JSON.parse(line),
    (key, value) =>
      TIMED.has(key)
        ? undefined
        : typeof value === "string"
        ? value.replace(/\b\d+(?:\.\d+)?(?:s|ms|µs)\b/g, "<time>")
        : value,
  );
}

/** The run's lines by episode id (records are written in the order samples finish). */
function linesOf(outDir: string): Map<string, string> {
  const lines = readFileSync(join(outDir, "trajectories.jsonl"), "utf8").trimEnd().split("\n");
  return new Map(lines.map((l) => [JSON.parse(l).episode_id as string, l]));
}

Deno.test("runRollout() writes the same records on 2 worker threads as on one", async () => {
  assert.ok(poolAvailable(), "the test process may read the worker module");
  const root = await Deno.makeTempDir({ prefix: "patchgym-pool-test-" });
  try {
    const environment = await Environment.open({ tasksDir: TASKS_DIR, workRoot: join(root, "w") });
    const run = referenceConfig(["py-median-even", "py-text-ngrams", "ts-cart-discounts"], 2);
    const runs = new Map<string, Map<string, string>>();
    // Two runs on one pool: the second finds the threads of the first, already set up.
    const pool = new WorkerPool(environment, 2);
    try {
      for (const how of ["1", "2", "pool-a", "pool-b"]) {
        const outDir = join(root, `out-${how}`);
        Deno.mkdirSync(outDir);
        const result = await runRollout({
          environment,
          outDir,
          config: run,
          policyFor: (task: Task) => new ReferencePolicy(task),
          concurrency: 4,
          ...(how.startsWith("pool") ? { pool } : { workers: Number(how) }),
        });
        assert.equal(result.summary.complete, true);
        assert.equal(result.ran.length, 6);
        const lines = linesOf(outDir);
        // What the run keeps of each record is that record's digest, made on the thread that ran it.
        for (const digest of result.ran) {
          assert.deepEqual(digest, digestRecord(JSON.parse(lines.get(digest.episode_id)!)), how);
        }
        runs.set(how, lines);
      }
      assert.equal(pool.alive, 2);
    } finally {
      pool.close();
    }
    const one = runs.get("1")!;
    for (const how of ["2", "pool-a", "pool-b"]) {
      const other = runs.get(how)!;
      assert.deepEqual([...other.keys()].sort(), [...one.keys()].sort(), how);
      for (const [episode, line] of one) {
        assert.equal(untimed(other.get(episode)!), untimed(line), `${how}: ${episode}`);
        assert.equal(JSON.parse(line).reward.resolved, true);
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("runRollout() on worker threads runs nothing once the signal has aborted", async () => {
  const root = await Deno.makeTempDir({ prefix: "patchgym-pool-test-" });
  try {
    const environment = await Environment.open({ tasksDir: TASKS_DIR, workRoot: join(root, "w") });
    const stop = new AbortController();
    stop.abort();
    const result = await runRollout({
      environment,
      outDir: root,
      config: referenceConfig(["py-median-even"], 3),
      policyFor: (task: Task) => new ReferencePolicy(task),
      workers: 2,
      signal: stop.signal,
    });
    assert.equal(result.ran.length, 0);
    assert.equal(result.interrupted, true);
    assert.equal(result.summary.complete, false);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("WorkerPool runs one rollout at a time and none once closed", async () => {
  const root = await Deno.makeTempDir({ prefix: "patchgym-pool-test-" });
  const environment = await Environment.open({ tasksDir: TASKS_DIR, workRoot: join(root, "w") });
  const pool = new WorkerPool(environment, 1);
  const rollout = (name: string) => {
    const outDir = join(root, name);
    Deno.mkdirSync(outDir);
    return runRollout({
      environment,
      outDir,
      config: referenceConfig(["py-median-even"], 2),
      policyFor: (task: Task) => new ReferencePolicy(task),
      pool,
    });
  };
  try {
    await pool.ready;
    const first = rollout("first");
    await assert.rejects(rollout("second"), /already running a rollout/);
    assert.equal((await first).ran.length, 2);
    pool.close();
    assert.equal(pool.alive, 0);
    await assert.rejects(rollout("closed"), /pool is closed/);
  } finally {
    pool.close();
    await Deno.remove(root, { recursive: true });
  }
});

/**
 * Niceness of each of this process's threads (Linux: /proc/PID/task/TID/stat, read through `sh`:
 * Deno reads /proc/PID only with --allow-all).
 */
async function threadNiceness(): Promise<{ tid: number; nice: number }[]> {
  const out = await new Deno.Command("sh", {
    args: ["-c", 'cat /proc/"$1"/task/*/stat 2>/dev/null; true', "sh", String(Deno.pid)],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean).map((stat) => {
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { tid: Number(stat.split(" ")[0]), nice: Number(fields[16]) };
  });
}

Deno.test("WorkerPool threads run at their children's niceness, below the main thread", async () => {
  if (Deno.build.os !== "linux") return console.warn("skipped: per-thread niceness is Linux's");
  if (Deno.permissions.querySync({ name: "sys", kind: "setPriority" }).state !== "granted") {
    return console.warn("skipped: no --allow-sys=setPriority (which the CLI grants)");
  }
  const root = await Deno.makeTempDir({ prefix: "patchgym-pool-test-" });
  try {
    const environment = await Environment.open({ tasksDir: TASKS_DIR, workRoot: join(root, "w") });
    const niceness = environment.sandbox.niceness;
    if (niceness === 0) {
      return console.warn("skipped: children run at niceness 0 here (the sh launcher)");
    }
    const before = new Set((await threadNiceness()).map((t) => t.tid));
    const pool = new WorkerPool(environment, 2);
    try {
      await pool.ready;
      const threads = await threadNiceness();
      const started = threads.filter((t) => !before.has(t.tid));
      // The two workers (and any thread they started since, which inherits their niceness).
      const lowered = started.filter((t) => t.nice === niceness);
      assert.ok(lowered.length >= 2, JSON.stringify(started));
      assert.equal(threads.find((t) => t.tid === Deno.pid)?.nice, 0);
    } finally {
      pool.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
