/**
 * The main thread of a rollout on the worker pool, while the pool runs a batch of graded episodes:
 * how long that thread waited for a core (`/proc/thread-self/schedstat`, Linux), how late its 1 ms
 * timer fired (`bench/_stalls.ts`), and the CPU per episode of the orchestrator and of its children
 * (a cgroup v1 `cpuacct` group, `bench/_cpu.ts`). `runRollout` runs `--episodes` samples of
 * `py-median-even` at once on a `--threads` pool, driven by the fake model (its own process) at
 * `--latency` ms, after a warm-up batch; `--rounds` batches in all. Made to compare two checkouts
 * by running it in each, alternating (docs/benchmarks.md, "Sixth round").
 *
 * `deno run -A bench/pool_stalls.ts --threads 2 --episodes 256 --latency 1000 --rounds 1`
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { Environment } from "../src/agent/environment.ts";
import { runRollout } from "../src/rollout/run.ts";
import { WorkerPool } from "../src/rollout/worker_pool.ts";
import { CpuMeter } from "./_cpu.ts";
import { fakeRunConfig, solvingCalls, startFakeModel } from "./_fake_model.ts";
import { schedstat, StallMonitor } from "./_stalls.ts";

const TASKS_DIR = fileURLToPath(new URL("../tasks", import.meta.url));
const TASK = "py-median-even";

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      threads: { type: "string", default: "2" },
      episodes: { type: "string", default: "256" },
      latency: { type: "string", default: "1000" },
      rounds: { type: "string", default: "1" },
    },
  });
  const [threads, episodes, latency, rounds] = [
    values.threads,
    values.episodes,
    values.latency,
    values.rounds,
  ].map(Number);
  if (![threads, episodes, rounds].every((n) => Number.isInteger(n) && n >= 1)) {
    throw new Error("--threads, --episodes and --rounds take whole numbers from 1");
  }
  const workRoot = await Deno.makeTempDir({ prefix: "patchgym-pool-stalls-" });
  const outRoot = await Deno.makeTempDir({ prefix: "patchgym-pool-stalls-runs-" });
  const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot });
  const patch = readFileSync(env.task(TASK).solutionPath!, "utf8");
  const model = await startFakeModel({ solve: solvingCalls(patch) });
  const meter = await CpuMeter.open(env.isolation);
  const pool = new WorkerPool(env, threads);
  try {
    await pool.ready;
    const batch = async (n: number, runId: string) => {
      const outDir = `${outRoot}/${runId}`;
      await Deno.mkdir(outDir);
      const config = fakeRunConfig({
        runId,
        tasks: [TASK],
        samples: n,
        baseUrl: model.baseUrl,
        plan: "solve",
        delayMs: latency,
      });
      const result = await runRollout({
        environment: env,
        outDir,
        config,
        concurrency: n,
        pool,
        policyFor: () => {
          throw new Error("The pool's threads make their own policies");
        },
      });
      const resolved = result.ran.filter((r) => r.reward?.resolved).length;
      if (resolved !== n) throw new Error(`${n - resolved} of ${n} episodes were not resolved`);
    };
    await batch(Math.min(episodes, 16), "warm-up");
    for (let round = 1; round <= rounds; round++) {
      const cpuBefore = process.cpuUsage();
      const groupBefore = await meter.read();
      const threadBefore = schedstat();
      const started = performance.now();
      const stalls = new StallMonitor();
      await batch(episodes, `round-${round}`);
      const late = stalls.stop();
      const wall = performance.now() - started;
      const thread = schedstat();
      const groupAfter = await meter.read();
      const cpu = process.cpuUsage(cpuBefore);
      const groupMs = groupAfter.groupMs === null || groupBefore.groupMs === null
        ? null
        : groupAfter.groupMs - groupBefore.groupMs - (groupAfter.selfMs - groupBefore.selfMs);
      const children = groupMs === null
        ? `not measured (${meter.unavailable})`
        : `${(groupMs / episodes).toFixed(1)} ms`;
      console.log(
        [
          `round ${round}: ${episodes} episodes on ${threads} threads, latency ${latency} ms, wall ${
            (wall / 1000).toFixed(1)
          } s`,
          `  main thread: ran ${
            (thread.ranMs - threadBefore.ranMs).toFixed(0)
          } ms, waited for a core ${(thread.waitedMs - threadBefore.waitedMs).toFixed(0)} ms`,
          `  its 1 ms timer: late by max ${late.max.toFixed(1)} ms, p99 ${late.p99.toFixed(1)} ms`,
          `  per episode: orchestrator CPU ${
            ((cpu.user + cpu.system) / 1000 / episodes).toFixed(1)
          } ms, children's CPU ${children}`,
        ].join("\n"),
      );
    }
  } finally {
    pool.close();
    await model.close();
    await meter.close();
    await Deno.remove(outRoot, { recursive: true });
    await Deno.remove(workRoot, { recursive: true });
  }
}

if (import.meta.main) await main();
