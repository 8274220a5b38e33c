/**
 * `rollout --queue` with `worker --queue` processes through the real entry point and a real
 * redis-server: a worker killed mid-episode loses nothing, a poison job ends as
 * `environment_error` after bounded attempts, SIGTERM drains.
 */
import assert from "node:assert/strict";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { JobQueue } from "../../src/rollout/queue.ts";
import { HAS_REDIS, startRedis, type TestRedis } from "../_redis.ts";
import {
  childEnv,
  jsonLines,
  makeRunDir,
  makeWorkRoot,
  patchgymArgv,
  removeRunDir,
  removeWorkRoot,
  ROOT,
  runPatchgym,
} from "./_run.ts";

/** A script whose episode lasts long enough to be caught mid-way, then submits. */
const SLOW_SCRIPT = [
  {
    tool: "run_command",
    arguments: { argv: ["python3", "-c", "import time; time.sleep(1.5)"] },
  },
  { tool: "submit", arguments: { status: "blocked", summary: "slept" } },
];

class Worker {
  readonly child: Deno.ChildProcess;
  readonly stderr: Promise<string>;

  constructor(args: string[]) {
    const argv = patchgymArgv(["worker", ...args]);
    this.child = new Deno.Command(argv[0], {
      args: argv.slice(1),
      cwd: ROOT,
      clearEnv: true,
      env: childEnv(),
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    this.stderr = new Response(this.child.stderr).text();
  }

  /** The exit code and everything it wrote on stderr. */
  async exit(): Promise<{ code: number; signal: Deno.Signal | null; stderr: string }> {
    const { code, signal } = await this.child.status;
    return { code, signal, stderr: await this.stderr };
  }

  kill(signal: Deno.Signal): void {
    try {
      this.child.kill(signal);
    } catch {
      // Already exited.
    }
  }
}

interface Setup {
  redis: TestRedis;
  queue: JobQueue;
  name: string;
  out: string;
  work: string;
  /** Start a worker; any still running at the end of the test is killed. */
  worker(args: string[]): Worker;
}

async function withSetup(prefix: string, body: (s: Setup) => Promise<void>): Promise<void> {
  const redis = await startRedis();
  const name = `t${crypto.randomUUID().slice(0, 6)}`;
  let queue: JobQueue | undefined;
  const out = makeRunDir(prefix);
  const work = makeWorkRoot(prefix);
  const workers: Worker[] = [];
  try {
    queue = await JobQueue.connect(redis.url, name);
    await body({
      redis,
      queue,
      name,
      out,
      work,
      worker: (args) => {
        const w = new Worker(args);
        workers.push(w);
        return w;
      },
    });
  } finally {
    for (const w of workers) {
      w.kill("SIGKILL");
      await w.exit();
    }
    await queue?.close();
    await redis.stop();
    removeRunDir(out);
    removeWorkRoot(work);
  }
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 6000; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** Whether the worker process `pid` holds a job now. */
async function holdsJob(queue: JobQueue, pid: number): Promise<boolean> {
  return (await queue.consumers()).some((c) =>
    c.name.startsWith(`worker-${pid}-`) && c.running > 0
  );
}

function readRecords(out: string): Record<string, unknown>[] {
  return jsonLines(readFileSync(join(ROOT, out, "run", "trajectories.jsonl"), "utf8"));
}

Deno.test({
  name: "workerCommand() killed with SIGKILL mid-episode loses nothing: one record per sample",
  ignore: !HAS_REDIS,
  fn: () =>
    withSetup("queue-kill", async ({ redis, queue, name, out, work, worker }) => {
      const script = join(out, "script.json");
      writeFileSync(join(ROOT, script), JSON.stringify(SLOW_SCRIPT));
      const producer = runPatchgym([
        "rollout",
        ...["--queue", redis.url, "--queue-name", name],
        ...["--tasks", "py-median-even,py-cron-next-run", "--samples", "2"],
        ...["--policy", "scripted", "--script", script],
        ...["--out", join(out, "run"), "--work-dir", work],
      ]);
      await until("the jobs", async () => (await queue.counts()).waiting === 4);
      const common = ["--queue", redis.url, "--queue-name", name, "--lease", "1"];
      const victim = worker([...common, "--work-dir", work]);
      await until("the victim to hold a job", () => holdsJob(queue, victim.child.pid));
      const others = [1, 2].map(() => worker([...common, "--exit-when-idle", "--work-dir", work]));
      victim.kill("SIGKILL");
      assert.equal((await victim.exit()).signal, "SIGKILL");

      const result = await producer;
      assert.equal(result.code, 0, result.stderr);
      for (const w of others) assert.equal((await w.exit()).code, 0);
      const records = readRecords(out);
      assert.equal(records.length, 4);
      assert.equal(new Set(records.map((r) => r.episode_id)).size, 4);
      assert.deepEqual(records.map((r) => r.stop_reason), Array(4).fill("submitted"));
      assert.deepEqual(await queue.counts(), { waiting: 0, running: 0 });
      const summary = JSON.parse(readFileSync(join(ROOT, out, "run", "summary.json"), "utf8"));
      assert.equal(summary.complete, true);
    }),
});

Deno.test({
  name: "workerCommand() gives up a poison job after --max-attempts: environment_error",
  ignore: !HAS_REDIS,
  fn: () =>
    withSetup("queue-poison", async ({ redis, name, out, work, worker: start }) => {
      // The workers' task folder lacks one task the producer asks for: every attempt fails.
      const tasks = makeWorkRoot("queue-tasks");
      try {
        Deno.mkdirSync(join(tasks, "tasks"));
        const copy = await new Deno.Command("cp", {
          args: ["-r", join(ROOT, "tasks", "py-median-even"), join(tasks, "tasks")],
        }).output();
        assert.ok(copy.success);
        const producer = runPatchgym([
          "rollout",
          ...["--queue", redis.url, "--queue-name", name, "--max-attempts", "2"],
          ...["--tasks", "py-median-even,py-cron-next-run"],
          ...["--out", join(out, "run"), "--work-dir", work],
        ]);
        const worker = start([
          ...["--queue", redis.url, "--queue-name", name, "--lease", "1"],
          ...["--tasks-dir", join(tasks, "tasks"), "--work-dir", work],
        ]);
        const result = await producer;
        worker.kill("SIGTERM");
        const { code, stderr } = await worker.exit();
        assert.equal(result.code, 0, result.stderr);
        assert.equal(code, 0, stderr);
        assert.match(stderr, /py-cron-next-run\/0: attempt 2 of 2 failed here/);
        const records = readRecords(out);
        assert.equal(records.length, 2);
        const byTask = Object.fromEntries(records.map((r) => [r.task_id, r]));
        assert.equal(byTask["py-median-even"].stop_reason, "submitted");
        assert.equal((byTask["py-median-even"].reward as { total: number }).total, 1);
        assert.equal(byTask["py-cron-next-run"].stop_reason, "environment_error");
        assert.equal(byTask["py-cron-next-run"].reward, null);
        assert.equal((byTask["py-cron-next-run"].error as { code: string }).code, "job_failed");
      } finally {
        removeWorkRoot(tasks);
      }
    }),
});

Deno.test({
  name: "workerCommand() drains on SIGTERM: the running sample is delivered, no new job taken",
  ignore: !HAS_REDIS,
  fn: () =>
    withSetup("queue-drain", async ({ redis, queue, name, out, work, worker }) => {
      const script = join(out, "script.json");
      writeFileSync(join(ROOT, script), JSON.stringify(SLOW_SCRIPT));
      const producer = runPatchgym([
        "rollout",
        ...["--queue", redis.url, "--queue-name", name],
        ...["--tasks", "py-median-even", "--samples", "2"],
        ...["--policy", "scripted", "--script", script],
        ...["--out", join(out, "run"), "--work-dir", work],
      ]);
      await until("the jobs", async () => (await queue.counts()).waiting === 2);
      const common = ["--queue", redis.url, "--queue-name", name, "--work-dir", work];
      const first = worker(common);
      await until("the worker to hold a job", () => holdsJob(queue, first.child.pid));
      first.kill("SIGTERM");
      const drained = await first.exit();
      assert.equal(drained.code, 0, drained.stderr);
      assert.match(drained.stderr, /Draining/);
      assert.match(drained.stderr, /1 sample\(s\) done/);
      assert.deepEqual(await queue.counts(), { waiting: 1, running: 0 });
      const runId = JSON.parse(readFileSync(join(ROOT, out, "run", "run.json"), "utf8")).run_id;
      assert.equal((await queue.results(runId, "0", 1)).results.length, 1);

      const second = worker([...common, "--exit-when-idle"]);
      const result = await producer;
      assert.equal(result.code, 0, result.stderr);
      assert.equal((await second.exit()).code, 0);
      assert.equal(readRecords(out).length, 2);
    }),
});

Deno.test({
  name: "rolloutCommand() --queue gives the same records, summary and report as a local run",
  ignore: !HAS_REDIS,
  fn: () =>
    withSetup("queue-same", async ({ redis, queue, name, out, work, worker }) => {
      const tasks = ["--tasks", "py-median-even,py-cron-next-run", "--samples", "2"];
      const local = await runPatchgym([
        "rollout",
        ...tasks,
        ...["--out", join(out, "local"), "--work-dir", work],
      ]);
      assert.equal(local.code, 0, local.stderr);
      const producer = runPatchgym([
        "rollout",
        ...["--queue", redis.url, "--queue-name", name],
        ...tasks,
        ...["--out", join(out, "run"), "--work-dir", work],
      ]);
      // Issue 25: a worker started with the producer found an empty queue while the producer
      // still checked its tasks, exited as idle, and the producer waited for workers forever.
      await until("the jobs", async () => (await queue.counts()).waiting === 4);
      const w = worker([
        ...["--queue", redis.url, "--queue-name", name, "--concurrency", "2"],
        ...["--exit-when-idle", "--work-dir", work],
      ]);
      const queued = await producer;
      assert.equal(queued.code, 0, queued.stderr);
      assert.equal((await w.exit()).code, 0);
      const summary = (dir: string) => {
        const s = JSON.parse(readFileSync(join(ROOT, out, dir, "summary.json"), "utf8"));
        return { complete: s.complete, samples: s.samples, per_task: s.per_task.map(stable) };
      };
      // Timing and identity differ; what was done and how it was graded must not.
      const stable = (t: Record<string, unknown>) => ({
        task_id: t.task_id,
        samples: t.samples,
        mean_reward: t.mean_reward,
        resolved: t.resolved,
        mean_turns: t.mean_turns,
        stop_reasons: t.stop_reasons,
      });
      assert.deepEqual(summary("run"), summary("local"));
      const graded = (dir: string) =>
        jsonLines(readFileSync(join(ROOT, out, dir, "trajectories.jsonl"), "utf8"))
          .map((r) => `${r.task_id}#${r.sample} ${r.final_diff} ${JSON.stringify(r.reward)}`)
          .sort();
      assert.deepEqual(graded("run"), graded("local"));
      assert.ok(statSync(join(ROOT, out, "run", "report.html")).size > 0);
    }),
});
