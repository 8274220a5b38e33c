/** The Redis job queue, against a real redis-server on loopback. */
import assert from "node:assert/strict";
import {
  JOB_FORMAT,
  JobQueue,
  parseQueueUrl,
  QueueError,
  type QueueJob,
  type QueueResult,
  runWorker,
} from "../../src/rollout/queue.ts";
import { queueKey } from "../../src/rollout/signing.ts";
import { createClient } from "redis";
import { HAS_REDIS, startRedis } from "../_redis.ts";

/** The key of the tests' queues. */
const KEY = queueKey("k".repeat(40), "test");

function job(episode: string, maxAttempts = 3): QueueJob {
  return {
    format: JOB_FORMAT,
    run_id: "run-q",
    episode_id: `run-q/${episode}`,
    task_id: episode,
    sample: 0,
    group_id: `run-q/${episode}`,
    max_attempts: maxAttempts,
    run: {},
  };
}

async function allResults(queue: JobQueue): Promise<QueueResult[]> {
  return (await queue.results("run-q", "0", 1)).results;
}

async function withQueue(body: (queue: JobQueue) => Promise<void>): Promise<void> {
  const redis = await startRedis();
  let queue: JobQueue | undefined;
  try {
    queue = await JobQueue.connect(redis.url, `t${crypto.randomUUID().slice(0, 6)}`, KEY);
    await body(queue);
  } finally {
    await queue?.close();
    await redis.stop();
  }
}

Deno.test("parseQueueUrl() accepts redis URLs and rejects others with the fix", () => {
  assert.equal(parseQueueUrl("redis://127.0.0.1:6379").port, "6379");
  assert.throws(() => parseQueueUrl("http://127.0.0.1:6379"), QueueError);
  assert.throws(() => parseQueueUrl("nope"), /expected redis:\/\/HOST:PORT/);
});

Deno.test({
  name: "JobQueue.connect() names the URL when nothing listens there",
  ignore: !HAS_REDIS,
  fn: async () => {
    const redis = await startRedis();
    const url = redis.url;
    await redis.stop();
    await assert.rejects(
      JobQueue.connect(url),
      /Cannot connect to the queue at "redis:\/\/127\.0\.0\.1/,
    );
  },
});

Deno.test({
  name: "JobQueue.enqueue() adds each episode id once, also across producers",
  ignore: !HAS_REDIS,
  fn: () =>
    withQueue(async (queue) => {
      assert.equal(await queue.enqueue([job("a"), job("b")]), 2);
      assert.equal(await queue.enqueue([job("a"), job("c")]), 1);
      assert.deepEqual(await queue.counts(), { waiting: 3, running: 0 });
    }),
});

Deno.test({
  name: "runWorker() takes over a job whose worker stopped renewing its lease",
  ignore: !HAS_REDIS,
  fn: () =>
    withQueue(async (queue) => {
      await queue.enqueue([job("a")]);
      // A worker that took the job and died: it never renews, publishes or acknowledges.
      const dead = await queue.take("dead-worker", 60_000, 100);
      assert.equal(dead?.attempt, 1);
      const attempts: number[] = [];
      const { done } = await runWorker(queue, ({ job, attempt }) => {
        attempts.push(attempt);
        return Promise.resolve({ episode_id: job.episode_id });
      }, { leaseMs: 300, exitWhenIdle: true });
      assert.equal(done, 1);
      assert.deepEqual(attempts, [2]);
      const results = await allResults(queue);
      assert.deepEqual(results.map((r) => [r.kind, r.episode_id]), [["record", "run-q/a"]]);
      assert.deepEqual(await queue.counts(), { waiting: 0, running: 0 });
    }),
});

Deno.test({
  name: "runWorker() publishes a job as failed after max_attempts deliveries",
  ignore: !HAS_REDIS,
  fn: () =>
    withQueue(async (queue) => {
      await queue.enqueue([job("poison", 2), job("fine", 2)]);
      const calls: string[] = [];
      const { done } = await runWorker(queue, ({ job }) => {
        calls.push(job.task_id);
        if (job.task_id === "poison") throw new Error("cannot run it here");
        return Promise.resolve({ episode_id: job.episode_id });
      }, { leaseMs: 300, exitWhenIdle: true });
      assert.equal(done, 1);
      assert.equal(calls.filter((c) => c === "poison").length, 2);
      const results = await allResults(queue);
      const failed = results.find((r) => r.episode_id === "run-q/poison");
      assert.equal(failed?.kind, "failed");
      assert.equal(failed.kind === "failed" && failed.attempts, 2);
      assert.equal(results.find((r) => r.episode_id === "run-q/fine")?.kind, "record");
      assert.equal(results.length, 2);
    }),
});

Deno.test({
  name: "runWorker() drains on abort: the running job is delivered, no new one is taken",
  ignore: !HAS_REDIS,
  fn: () =>
    withQueue(async (queue) => {
      await queue.enqueue([job("a"), job("b")]);
      const stop = new AbortController();
      let release!: () => void;
      const gate = new Promise<void>((r) => release = r);
      let started!: () => void;
      const running = new Promise<void>((r) => started = r);
      const worker = runWorker(queue, async ({ job }) => {
        started();
        await gate;
        return { episode_id: job.episode_id };
      }, { leaseMs: 300, signal: stop.signal });
      await running;
      stop.abort();
      release();
      assert.deepEqual(await worker, { done: 1 });
      assert.equal((await allResults(queue)).length, 1);
      assert.deepEqual(await queue.counts(), { waiting: 1, running: 0 });
    }),
});

Deno.test({
  name: "JobQueue.connect() logs in with the URL's user and password and never prints the password",
  ignore: !HAS_REDIS,
  fn: async () => {
    const redis = await startRedis(["--requirepass", "s3cret-pass-word"]);
    try {
      const authed = redis.url.replace("redis://", "redis://default:s3cret-pass-word@");
      const queue = await JobQueue.connect(authed, "auth", KEY);
      try {
        assert.equal(await queue.enqueue([job("a")]), 1);
      } finally {
        await queue.close();
      }
      const anonymous = await JobQueue.connect(redis.url, "auth", KEY);
      try {
        await assert.rejects(anonymous.counts(), /NOAUTH|Authentication required/);
      } finally {
        await anonymous.close();
      }
      const wrong = redis.url.replace("redis://", "redis://default:wrong-pass-word@");
      await assert.rejects(JobQueue.connect(wrong, "auth", KEY), (error: Error) => {
        assert.doesNotMatch(error.message, /wrong-pass-word/);
        assert.match(error.message, /\*\*\*/);
        return true;
      });
    } finally {
      await redis.stop();
    }
  },
});

Deno.test({
  name: "JobQueue.results() refuses a genuine result moved from another run, and a copy of one",
  ignore: !HAS_REDIS,
  fn: async () => {
    // Red team, as a writer of the Redis without the key: a result the workers signed for another
    // run (or another queue) copied into this run's stream, and a genuine result added twice.
    const redis = await startRedis();
    const name = `t${crypto.randomUUID().slice(0, 6)}`;
    const queue = await JobQueue.connect(redis.url, name, KEY);
    const other = await JobQueue.connect(redis.url, `${name}x`, KEY);
    const attacker = createClient({ url: redis.url, socket: { reconnectStrategy: false } });
    await attacker.connect();
    try {
      const result = (episode: string): QueueResult => ({
        kind: "error",
        episode_id: `run-q/${episode}`,
        error: { code: "job_failed", message: "x" },
      } as unknown as QueueResult);
      await queue.complete("0-1", "other-run", result("a"));
      await other.complete("0-1", "run-q", result("b"));
      await queue.complete("0-1", "run-q", result("c"));
      const fieldsOf = async (key: string) =>
        ((await attacker.sendCommand(["XRANGE", key, "-", "+"])) as [string, string[]][])[0][1];
      const target = queue.resultsKey("run-q");
      await attacker.sendCommand([
        "XADD",
        target,
        "*",
        ...await fieldsOf(queue.resultsKey("other-run")),
      ]);
      await attacker.sendCommand([
        "XADD",
        target,
        "*",
        ...await fieldsOf(other.resultsKey("run-q")),
      ]);
      await attacker.sendCommand(["XADD", target, "*", ...await fieldsOf(target)]);
      const read = await queue.results("run-q", "0", 1);
      assert.deepEqual(read.results.map((r) => r.episode_id), ["run-q/c"]);
      assert.deepEqual(read.refused.map((r) => r.reason), ["forged", "forged", "replayed"]);
    } finally {
      await attacker.quit();
      await queue.close();
      await other.close();
      await redis.stop();
    }
  },
});
