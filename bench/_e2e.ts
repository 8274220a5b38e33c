/**
 * Section 4: whole samples. Reference-policy rollouts one after another, then concurrent batches
 * of the real `OpenAIPolicy` against a fake model that answers after a fixed delay, with memory
 * per rollout and a leak check at the end.
 */
import { ReferencePolicy } from "../src/policy/reference.ts";
import { OpenAIPolicy } from "../src/policy/openai.ts";
import { Environment } from "../src/rollout/environment.ts";
import { runSample } from "../src/rollout/sample.ts";
import type { TrajectoryRecord } from "../src/trajectory/record.ts";
import { type BenchContext, subdir } from "./_context.ts";
import { type FakeModel, fakeModelName, startFakeModel } from "./_fake_model.ts";
import { makeRow, type Row } from "./_report.ts";
import { summarize } from "./_stats.ts";
import { entriesIn, type ProcessFacts, processFacts, RssSampler } from "./_system.ts";

/** Tasks of the reference rollouts: Python (unittest and pytest) and TypeScript. */
const REFERENCE_TASKS = [
  "py-median-even",
  "py-text-ngrams",
  "py-units-fahrenheit",
  "ts-cart-discounts",
  "ts-router-query-paths",
  "ts-emitter-once-order",
];
const REFERENCE_ROUNDS = 2;
const FAKE_TASK = "py-median-even";
const FAKE_TURNS = 5;
const FAKE_DELAY_MS = 1000;
const CONCURRENCY = [1, 16, 64];

/** Run the end-to-end figures and the leak check. */
export async function benchEndToEnd(ctx: BenchContext): Promise<Row[]> {
  const before = await processFacts();
  const workRoot = subdir(ctx, "e2e");
  const env = await Environment.open({ tasksDir: ctx.tasksDir, workRoot });
  const rows = [...await referenceRollouts(ctx, env), ...await fakeModelBatches(ctx, env)];
  rows.push(...leakRows(workRoot, before, await processFacts()));
  return rows;
}

async function referenceRollouts(ctx: BenchContext, env: Environment): Promise<Row[]> {
  const section = "4a reference rollouts";
  const rollout = async (id: string, sample: number) => {
    const task = env.task(id);
    const started = performance.now();
    const record = await runSample(
      env,
      task,
      new ReferencePolicy(task),
      identity(id, sample, "reference"),
    );
    const wall = performance.now() - started;
    if (!record.reward?.resolved) {
      throw new Error(
        `Reference rollout of ${id} was not resolved: ${record.stop_reason} ${
          JSON.stringify(record.error)
        }`,
      );
    }
    return { record, wall };
  };
  ctx.log(`e2e: reference rollouts over ${REFERENCE_TASKS.length} tasks x ${REFERENCE_ROUNDS}`);
  await rollout(REFERENCE_TASKS[0], -1); // warm-up
  const walls: number[] = [];
  const floors: number[] = [];
  const envPerTurn: number[] = [];
  const testsPerTurn: number[] = [];
  const otherPerTurn: number[] = [];
  const started = performance.now();
  for (let round = 0; round < REFERENCE_ROUNDS; round++) {
    for (const id of REFERENCE_TASKS) {
      const { record, wall } = await rollout(id, round);
      const turns = record.turns.length;
      const toolMs = (name?: string) =>
        record.turns.reduce(
          (sum, t) => sum + (t.tool && (!name || t.tool.name === name) ? t.tool.duration_ms : 0),
          0,
        );
      walls.push(wall);
      floors.push(toolMs("run_tests") + record.timings.grade_ms);
      envPerTurn.push(record.timings.env_ms / turns);
      testsPerTurn.push(toolMs("run_tests") / turns);
      otherPerTurn.push((toolMs() - toolMs("run_tests")) / turns);
    }
  }
  const total = performance.now() - started;
  const n = walls.length;
  const floorSum = floors.reduce((a, b) => a + b, 0);
  return [
    makeRow({
      section,
      figure: "reference rollouts/s (sequential, graded)",
      unit: "rollouts/s",
      summary: { median: (n * 1000) / total, p95: null, n },
      baseline: { name: "test runs + grading only", value: (n * 1000) / floorSum },
      note: `Tasks ${
        REFERENCE_TASKS.join(", ")
      }, ${REFERENCE_ROUNDS} rounds; the baseline is the rate if nothing but the run_tests calls and grading (from the records) took time`,
    }),
    makeRow({
      section,
      figure: "reference rollout wall",
      unit: "ms",
      values: walls,
      baseline: { name: "run_tests + grade_ms", value: summarize(floors).median },
    }),
    makeRow({
      section,
      figure: "env time per turn (timings.env_ms / turns)",
      unit: "ms",
      values: envPerTurn,
      baseline: { name: "run_tests ms / turns", value: summarize(testsPerTurn).median },
    }),
    makeRow({
      section,
      figure: "env time per turn, in-process tools only",
      unit: "ms",
      values: otherPerTurn,
    }),
  ];
}

async function fakeModelBatches(ctx: BenchContext, env: Environment): Promise<Row[]> {
  const section = "4b fake model";
  const model = await startFakeModel();
  const task = env.task(FAKE_TASK);
  const rows: Row[] = [];
  try {
    const batch = async (concurrency: number, delayMs: number) => {
      const started = performance.now();
      const records = await Promise.all(Array.from({ length: concurrency }, (_, i) => {
        const policy = new OpenAIPolicy({
          baseUrl: model.baseUrl,
          model: fakeModelName(delayMs),
          maxRetries: 0,
          fetch: model.fetch,
        });
        return runSample(env, task, policy, identity(FAKE_TASK, i, `fake-${concurrency}`), {
          skipGrading: true,
        });
      }));
      const wall = performance.now() - started;
      for (const record of records) checkFakeRecord(record);
      return { wall, records };
    };
    ctx.log("e2e: fake model warm-up (no delay)");
    const conversation = (await batch(4, 0)).records[0];
    await httpOnly(model, conversation, 4, 0);
    await model.holds();
    for (const concurrency of CONCURRENCY) {
      ctx.log(
        `e2e: fake model, ${concurrency} concurrent samples x ${FAKE_TURNS} turns x ${FAKE_DELAY_MS} ms`,
      );
      // Unmeasured, same size, no model delay: connections, blocking threads and heap in place.
      await batch(concurrency, 0);
      await httpOnly(model, conversation, concurrency, 0);
      await model.holds();
      const baselineRss = Deno.memoryUsage().rss;
      const sampler = concurrency === 64 ? new RssSampler(20) : null;
      const { wall } = await batch(concurrency, FAKE_DELAY_MS);
      const peakRss = sampler?.stop();
      const ideal = FAKE_TURNS * FAKE_DELAY_MS;
      const overhead = wall - ideal;
      const label = `C=${concurrency}`;
      const held = summarize(await model.holds());
      ctx.log(`e2e: HTTP only, ${concurrency} concurrent clients x ${FAKE_TURNS} requests`);
      const floor = await httpOnly(model, conversation, concurrency, FAKE_DELAY_MS) - ideal;
      await model.holds();
      rows.push(
        makeRow({
          section,
          figure: `batch wall, ${label}`,
          unit: "ms",
          summary: { median: wall, p95: null, n: 1 },
          baseline: { name: "ideal 5 turns x 1000 ms", value: ideal },
          note:
            `After an unmeasured warm-up batch of the same size without delay. The fake server (own process) held its ${held.n} replies ${
              held.median.toFixed(2)
            } ms median, ${
              held.p95.toFixed(2)
            } ms p95, from arrival to answer (timers corrected by ${
              model.timerLateMs.toFixed(2)
            } ms of measured lateness)`,
        }),
        makeRow({
          section,
          figure: `env overhead, ${label}`,
          unit: "%",
          summary: { median: (overhead / ideal) * 100, p95: null, n: 1 },
          target: concurrency === 64
            ? { text: "< 1 %", metric: "median", op: "<", value: 1 }
            : null,
        }),
        makeRow({
          section,
          figure: `env overhead per turn, ${label}`,
          unit: "ms",
          summary: { median: overhead / FAKE_TURNS, p95: null, n: 1 },
          baseline: { name: "HTTP-only overhead per turn", value: floor / FAKE_TURNS },
          note: concurrency === 64
            ? "HTTP only: the same requests (bodies of a recorded episode) from the same number of concurrent clients through the same fetch client, with no environment at all; what it loses to the ideal is the HTTP client's and the server's share"
            : undefined,
        }),
      );
      if (peakRss !== undefined) {
        rows.push(makeRow({
          section,
          figure: `peak RSS per concurrent rollout, ${label}`,
          unit: "MB",
          summary: { median: (peakRss - baselineRss) / concurrency / 1024 ** 2, p95: null, n: 1 },
          baseline: { name: "RSS before the batch", value: baselineRss / 1024 ** 2 },
          note:
            "(peak RSS sampled every 20 ms during the batch - RSS before it) / 64; the ratio compares it to the whole process",
        }));
      }
    }
  } finally {
    await model.close();
  }
  return rows;
}

/**
 * The batch's HTTP traffic alone: `concurrency` clients each send the requests of a recorded
 * episode in turn (as OpenAIPolicy would build them) and parse the answers. Returns the wall ms.
 */
async function httpOnly(
  model: FakeModel,
  record: TrajectoryRecord,
  concurrency: number,
  delayMs: number,
): Promise<number> {
  const assistantAt = record.messages.flatMap((m, i) => (m.role === "assistant" ? [i] : []));
  const bodies = assistantAt.map((end) =>
    JSON.stringify({
      model: fakeModelName(delayMs),
      messages: record.messages.slice(0, end),
      tools: record.tools,
      tool_choice: "auto",
      logprobs: true,
      return_token_ids: true,
      n: 1,
      stream: false,
    })
  );
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (const body of bodies) {
      const response = await model.fetch(`${model.baseUrl}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      JSON.parse(await response.text());
    }
  }));
  return performance.now() - started;
}

function checkFakeRecord(record: TrajectoryRecord): void {
  const failed = record.turns.find((t) => t.tool && !t.tool.ok);
  if (record.stop_reason !== "submitted" || record.turns.length !== FAKE_TURNS || failed) {
    throw new Error(
      `Fake-model sample did not follow the plan: ${record.stop_reason}, ${record.turns.length} turns, ${
        JSON.stringify(record.error ?? failed?.tool?.output ?? null)
      }`,
    );
  }
}

function leakRows(workRoot: string, before: ProcessFacts, after: ProcessFacts): Row[] {
  const section = "4 leak check";
  const children = after.children;
  const left = entriesIn(workRoot);
  const fds = after.fds;
  const fdsBefore = before.fds;
  const childrenBefore = before.children.length;
  return [
    makeRow({
      section,
      figure: "child processes left after the e2e runs",
      unit: "count",
      summary: { median: children.length, p95: null, n: 1 },
      baseline: { name: "before", value: childrenBefore },
      target: { text: "0", metric: "median", op: "==", value: 0 },
      note: children.length > 0 ? `Left: pids ${children.join(", ")}` : undefined,
    }),
    makeRow({
      section,
      figure: "entries left in the workspace root",
      unit: "count",
      summary: { median: left.length, p95: null, n: 1 },
      target: { text: "0", metric: "median", op: "==", value: 0 },
      note: left.length > 0 ? `Left: ${left.slice(0, 10).join(", ")}` : undefined,
    }),
    makeRow({
      section,
      figure: "open file descriptors after the e2e runs",
      unit: "count",
      summary: { median: fds, p95: null, n: 1 },
      baseline: { name: "before", value: fdsBefore },
      target: { text: "before +/- 2", metric: "delta", op: "abs<=", value: 2 },
    }),
  ];
}

function identity(taskId: string, sample: number, group: string) {
  return {
    run_id: "bench",
    episode_id: `${group}-${taskId}-${sample}`,
    task_id: taskId,
    sample,
    group_id: `${group}-${taskId}`,
  };
}
