/**
 * Where a rollout's orchestrator CPU goes by thread, and what a worker pool costs: batches of
 * `py-median-even` through `runRollout` against the fake model (latency 0), each printed with its
 * rate, this process's CPU per episode and each thread's share of it (`/proc/self/task/<tid>/stat`,
 * grouped by thread name: the main thread is `deno`, V8's helpers `V8 DefaultWorke`, Deno workers
 * `worker-N`). A batch is `[p[s]]THREADS:C:EPISODES`: with `p`, on a `WorkerPool` started at its
 * first use and kept for the next batches of the same key (its start-up printed apart), with `s`
 * its threads keep a spawner thread each; without `p`, the way `runRollout` runs it alone. Run:
 * `deno run -A bench/threads.ts 1:8:16,p2:16:16,1:8:48,p2:16:48,ps2:16:16,ps2:16:48`
 * (Linux only; alternate the batches compared, since the machine drifts). Under
 * `--v8-flags=--expose-gc` it also prints what the run's result keeps in this thread's heap per
 * episode (collected before the batch and after it, the result still held).
 */
import { readFileSync } from "node:fs";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { Environment } from "../src/agent/environment.ts";
import { OpenAIPolicy } from "../src/policy/openai.ts";
import { runRollout } from "../src/rollout/run.ts";
import { WorkerPool } from "../src/rollout/worker_pool.ts";
import { fakeModelName, fakeRunConfig, solvingCalls, startFakeModel } from "./_fake_model.ts";

const TASKS_DIR = fileURLToPath(new URL("../tasks", import.meta.url));

/** CPU of each of this process's threads so far, ms, summed by thread name. */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  const tick = 1000 / 100; // USER_HZ
  for (const entry of Deno.readDirSync("/proc/self/task")) {
    let raw;
    try {
      raw = Deno.readTextFileSync(`/proc/self/task/${entry.name}/stat`);
    } catch {
      continue; // the thread ended meanwhile
    }
    const name = raw.slice(raw.indexOf("(") + 1, raw.lastIndexOf(")"));
    const fields = raw.slice(raw.lastIndexOf(")") + 2).split(" ");
    out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * tick);
  }
  return out;
}

/** This thread's heap in use once collected, bytes; null without `--expose-gc`. */
function collected(): number | null {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return null;
  gc();
  return Deno.memoryUsage().heapUsed;
}

function cpuMs(since: ReturnType<typeof process.cpuUsage>): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function main(plan: string): Promise<void> {
  const workRoot = await Deno.makeTempDir({ prefix: "patchgym-threads-" });
  const env = await Environment.open({ tasksDir: TASKS_DIR, workRoot });
  const task = env.task("py-median-even");
  const patch = readFileSync(task.solutionPath!, "utf8");
  const model = await startFakeModel({ solve: solvingCalls(patch) });
  const pools = new Map<string, WorkerPool>();
  try {
    for (const point of plan.split(",")) {
      const match = /^(p?)(s?)(\d+):(\d+):(\d+)$/.exec(point);
      if (!match) throw new Error(`Expected [p[s]]THREADS:C:EPISODES, got "${point}"`);
      const [, pooled, spawner, workers, concurrency, episodes] = match;
      const key = `${pooled}${spawner}${workers}`;
      if (pooled && !pools.has(key)) {
        const before = process.cpuUsage();
        const started = performance.now();
        const pool = new WorkerPool(env, Number(workers), { spawnerThreads: spawner === "s" });
        pools.set(key, pool);
        await pool.ready;
        console.log(
          `pool ${key}: ready in ${(performance.now() - started).toFixed(0)} ms, CPU ${
            cpuMs(before).toFixed(0)
          } ms`,
        );
      }
      const outDir = await Deno.makeTempDir({ dir: workRoot, prefix: "out-" });
      const n = Number(episodes);
      const heapBefore = collected();
      const threadsBefore = threadCpu();
      const before = process.cpuUsage();
      const started = performance.now();
      const result = await runRollout({
        environment: env,
        outDir,
        config: fakeRunConfig({
          runId: `threads-${point}`,
          tasks: [task.spec.id],
          samples: n,
          baseUrl: model.baseUrl,
          plan: "solve",
          delayMs: 0,
        }),
        policyFor: () =>
          new OpenAIPolicy({
            baseUrl: model.baseUrl,
            model: fakeModelName("solve", 0),
            maxRetries: 0,
            fetch: model.fetch,
          }),
        concurrency: Number(concurrency),
        workers: Number(workers),
        pool: pools.get(key),
        onRecord: (record) => {
          if (!record.reward?.resolved) throw new Error(`Not resolved: ${record.stop_reason}`);
        },
      });
      const wall = performance.now() - started;
      const cpu = cpuMs(before);
      const heapAfter = collected();
      const kept = heapBefore === null || heapAfter === null
        ? ""
        : `, heap kept ${
          ((heapAfter - heapBefore) / n / 1024).toFixed(1)
        } KB/episode (${result.ran.length} held)`;
      const threads = [...threadCpu()]
        .map(([name, ms]) => [name, (ms - (threadsBefore.get(name) ?? 0)) / n] as const)
        .filter(([, ms]) => ms >= 0.1)
        .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
        .join(", ");
      console.log(
        `${point}: ${((n * 1000) / wall).toFixed(2)} ep/s, orchestrator CPU ${
          (cpu / n).toFixed(1)
        } ms/episode (by thread: ${threads})${kept}`,
      );
      await Deno.remove(outDir, { recursive: true });
    }
  } finally {
    for (const pool of pools.values()) pool.close();
    await model.close();
    await Deno.remove(workRoot, { recursive: true });
  }
}

if (import.meta.main) await main(Deno.args[0] ?? "1:8:16,p2:16:16,1:8:48,p2:16:48");
