/**
 * Section 4b: whole graded episodes. Rollouts of `py-median-even` through `runRollout`, the way
 * `patchgym rollout` runs them: the OpenAI policy talks to a fake OpenAI-compatible model (its own
 * process) that answers with the four calls solving the task (read the file, apply the fix, run the
 * visible tests, submit), and every sample is graded. Batches run on 1, 2, 4 and all cores
 * (`workers`) at model latency 0 (throughput; concurrency and episodes grow with the threads) and
 * on all cores at 1 s (overhead), and every figure stands next to a baseline from the same run:
 * the same tests run bare (their CPU and wall, and their throughput at the same concurrency), and
 * an idle event loop. Worker threads are a {@linkcode WorkerPool} started once per thread count:
 * its start-up is a row of its own, and the measured batches run on it after a warm-up batch, as
 * in a long run or a server that keeps its threads. CPU is `getrusage` of this process (every
 * thread, worker threads included) and a cpuacct cgroup for its children, so figures hold on a
 * busy machine, where wall time does not.
 */
import { readFileSync } from "node:fs";
import { OpenAIPolicy } from "../src/policy/openai.ts";
import type { Environment } from "../src/agent/environment.ts";
import { runRollout } from "../src/rollout/run.ts";
import { WorkerPool } from "../src/rollout/worker_pool.ts";
import { Sandbox } from "../src/sandbox/sandbox.ts";
import { runTests } from "../src/sandbox/test_runner.ts";
import type { Task } from "../src/task/spec.ts";
import type { RecordDigest } from "../src/trajectory/digest.ts";
import type { BenchContext } from "./_context.ts";
import { spawnChecked, subdir } from "./_context.ts";
import { WarmInterpreter } from "./_warm.ts";
import { CpuMeter } from "./_cpu.ts";
import {
  type FakeModel,
  fakeModelName,
  fakeRunConfig,
  solvingCalls,
  startFakeModel,
} from "./_fake_model.ts";
import { preparedCopy } from "./_grading.ts";
import { makeRow, type Row } from "./_report.ts";
import { bareTestCommand } from "./_sandbox.ts";
import { idleStalls, MachineStalls, StallMonitor, type Stalls } from "./_stalls.ts";
import { summarize } from "./_stats.ts";
import { RssSampler } from "./_system.ts";

const TASK = "py-median-even";
const PLAN = "solve";
const TURNS = 4;
const LATENCY_MS = 1000;
/**
 * Latency 0, by thread count (1, 2, 4, all cores; `--quick`: 1 and 2): samples at once and samples
 * measured per thread, so every thread has as much to do at every point (at most 512 at once).
 */
const PER_THREAD = { concurrency: 8, episodes: 24 };
const MAX_CONCURRENCY = 512;
/**
 * Latency 0 on all cores, after the points above: a batch this many times longer per thread, whose
 * orchestrator CPU per episode is what a long run sees once the threads' code is compiled (the
 * short points still pay much of that compilation; not with `--quick`).
 */
const LONG_EPISODES_PER_THREAD = 150;
/** Latency 1 s on all cores: one wave of this many samples each. */
const OVERHEAD = [16, 64];
const FAST_OVERHEAD = [16];
/** Latency 1 s on one thread: the event loop's stalls with this many samples in flight. */
const STALL_CONCURRENCY = 256;
const FAST_STALL_CONCURRENCY = 64;
/** Bare and sandboxed test runs per baseline. */
const BASELINE_RUNS = 8;
/** Episodes' worth of bare test runs per core for the bare throughput (at least 2 x C). */
const BARE_EPISODES_PER_CORE = 6;

/** Where the child CPU of an episode's test runs would be if nothing but the tests cost. */
interface Floor {
  /** Bare CPU of the tests one episode runs (run_tests' visible tests + grading's all), ms. */
  cpuMs: number;
  /** Their bare wall time one after the other, ms. */
  wallMs: number;
}

/** Run the episode batches; `fast` runs fewer and smaller points. */
export async function benchEpisodes(
  ctx: BenchContext,
  env: Environment,
  options: { fast?: boolean } = {},
): Promise<Row[]> {
  const section = "4b graded episodes";
  const task = env.task(TASK);
  const patch = readFileSync(task.solutionPath!, "utf8");
  // The model starts before the meter, so its CPU stays outside the measured cgroup.
  const model = await startFakeModel({ [PLAN]: solvingCalls(patch) });
  // Before the meter too: the independent stall monitor's CPU is not an episode's.
  const machine = MachineStalls.start();
  const cpu = await CpuMeter.open(env.isolation);
  const cores = navigator.hardwareConcurrency;
  const rows: Row[] = [];
  const pools = new Map<number, WorkerPool>();
  try {
    ctx.log("episodes: baselines (bare and sandboxed test runs, idle event loop)");
    const { floor, bare, rows: baseRows } = await baselines(ctx, env, task, patch, cpu);
    rows.push(...baseRows);
    const { stalls: idle, monitorCpuPerMs } = await idleStalls(2000, () => {
      const rss = new RssSampler(20);
      return () => rss.stop();
    });
    rows.push(makeRow({
      section,
      figure: "event-loop lateness, idle loop, max / p99",
      unit: "ms",
      summary: { median: idle.max, p95: idle.p99, n: idle.n },
      note:
        "A 1 ms timer's lateness while nothing else runs: what the machine itself costs (the p95 column holds the p99)",
    }));
    rows.push(makeRow({
      section,
      figure: "the monitors' own CPU (1 ms timer, RSS sampler)",
      unit: "ms/s",
      summary: { median: monitorCpuPerMs * 1000, p95: null, n: 1 },
      note:
        "Measured on the idle loop; only the event-loop batch runs the monitors, and its orchestrator CPU includes them (about this rate x its wall)",
    }));
    const ideal = cores / (floor.cpuMs / 1000);
    const fast = options.fast ?? false;
    const threads = [...new Set([1, 2, 4, cores])].filter((n) => n <= Math.max(2, cores));
    const run = (workers: number, concurrency: number, episodes: number, delayMs: number) =>
      batch(ctx, env, model, cpu, {
        workers,
        concurrency,
        episodes,
        delayMs,
        pool: workers > 1 ? pools.get(workers) : undefined,
      });
    ctx.log("episodes: warm-up batch, 1 thread");
    await run(1, 4, 8, 0);
    let oneThread: number | null = null;
    let oneThreadCpu: number | null = null;
    for (const workers of fast ? threads.filter((n) => n <= 2) : threads) {
      const concurrency = Math.min(MAX_CONCURRENCY, PER_THREAD.concurrency * workers);
      const episodes = Math.max(concurrency, PER_THREAD.episodes * workers);
      const label = `latency 0, ${workers} thread${workers > 1 ? "s" : ""}, C=${concurrency}`;
      if (workers > 1) {
        rows.push(...await startPool(ctx, env, cpu, pools, workers));
        ctx.log(`episodes: warm-up wave on ${workers} threads, C=${concurrency}`);
        const warm = await run(workers, concurrency, concurrency, 0);
        rows.push(makeRow({
          section,
          figure: `episodes/s of the first wave on fresh threads, ${label}`,
          unit: "ep/s",
          summary: { median: (concurrency * 1000) / warm.wallMs, p95: null, n: concurrency },
          baseline: null,
          note: workers === 2
            ? "C episodes right after the start-up, the threads' code not yet compiled: the warm-up, not part of the throughput rows"
            : undefined,
        }));
      }
      const bareAtC = await bare(concurrency);
      ctx.log(
        `episodes: bare tests at C=${concurrency}: ${bareAtC.rate.toFixed(1)} episodes/s, ${
          bareAtC.cpuMs?.toFixed(1) ?? "-"
        } ms CPU per episode (one at a time: ${floor.cpuMs.toFixed(1)} ms)`,
      );
      ctx.log(`episodes: latency 0, ${workers} thread(s), C=${concurrency}, ${episodes} episodes`);
      const b = await run(workers, concurrency, episodes, 0);
      const rate = (episodes * 1000) / b.wallMs;
      oneThread ??= rate;
      oneThreadCpu ??= b.selfMs / episodes;
      const bound = Math.min(ideal, (concurrency * 1000) / floor.wallMs);
      rows.push(
        makeRow({
          section,
          figure: `episodes/s, ${label}`,
          unit: "ep/s",
          summary: { median: rate, p95: null, n: episodes },
          baseline: { name: "bare tests, same C", value: bareAtC.rate },
          target: workers === cores
            ? { text: ">= 0.75x bare", metric: "ratio", op: ">=", value: 0.75 }
            : null,
          note: workers === 1
            ? `The baseline: the same test runs done bare (no jail, no grader, no model), C at once on every core, measured in this run just before; the computed bound min(cores / bare CPU per episode, C / bare wall per episode) is ${
              bound.toFixed(1)
            } episodes/s. C = ${PER_THREAD.concurrency} x threads, ${PER_THREAD.episodes} episodes x threads; on more than one thread a started pool after a warm-up wave (its start-up is the row above)`
            : undefined,
        }),
        ...(workers > 1
          ? [makeRow({
            section,
            figure: `episodes/s on ${workers} threads over 1 thread, latency 0`,
            unit: "x",
            summary: { median: rate / oneThread, p95: null, n: episodes },
            baseline: null,
            note: workers === threads.filter((n) => n > 1)[0]
              ? "Throughput gained by worker threads, same run; on a machine whose cores are shared with other work (or with the tests themselves) the gain is capped by what that work leaves"
              : undefined,
          })]
          : []),
        ...batchRows(
          section,
          label,
          concurrency,
          b,
          floor,
          idle,
          workers > 1 ? oneThreadCpu : null,
          bareAtC.cpuMs,
        ),
      );
      // Only the all-cores pool is used again (the 1 s batches): the others end here.
      if (workers !== cores) {
        pools.get(workers)?.close();
        pools.delete(workers);
      }
    }
    if (!fast) rows.push(await longBatch(ctx, cores, (c, e) => run(cores, c, e, 0), oneThreadCpu));
    for (const concurrency of fast ? FAST_OVERHEAD : OVERHEAD) {
      if (cores > 1 && !pools.has(cores)) {
        // `--quick` on more than 2 cores: the all-cores pool starts here, and gets its warm-up wave.
        rows.push(...await startPool(ctx, env, cpu, pools, cores));
        const wave = Math.min(MAX_CONCURRENCY, PER_THREAD.concurrency * cores);
        ctx.log(`episodes: warm-up wave on ${cores} threads, C=${wave}`);
        await run(cores, wave, wave, 0);
      }
      ctx.log(`episodes: latency ${LATENCY_MS} ms, ${cores} threads, C=${concurrency}`);
      const b = await run(cores, concurrency, concurrency, LATENCY_MS);
      const modelMs = TURNS * LATENCY_MS;
      // The tests alone, run bare, would add this much: their wall, or their CPU spread on the cores.
      const testsMs = Math.max(floor.wallMs, (concurrency * floor.cpuMs) / cores);
      const label = `latency 1 s, ${cores} threads, C=${concurrency}`;
      rows.push(
        makeRow({
          section,
          figure: `env overhead, ${label}`,
          unit: "%",
          summary: { median: ((b.wallMs - modelMs) / modelMs) * 100, p95: null, n: concurrency },
          baseline: { name: "bare tests' share", value: (testsMs / modelMs) * 100 },
          target: concurrency === 64
            ? { text: "< 15 %", metric: "median", op: "<", value: 15 }
            : null,
          note: concurrency === (fast ? FAST_OVERHEAD : OVERHEAD)[0]
            ? `(batch wall - ${TURNS} turns x ${LATENCY_MS} ms) / model time; the baseline is what the same tests would add if run bare: max(their wall, C x their CPU / ${cores} cores)`
            : undefined,
        }),
        ...batchRows(section, label, concurrency, b, floor, idle),
      );
    }
    const many = fast ? FAST_STALL_CONCURRENCY : STALL_CONCURRENCY;
    ctx.log(`episodes: latency ${LATENCY_MS} ms, 1 thread, C=${many} (event-loop stalls)`);
    const b = await batch(ctx, env, model, cpu, {
      workers: 1,
      concurrency: many,
      episodes: many,
      delayMs: LATENCY_MS,
      watch: machine,
    });
    rows.push(
      ...batchRows(
        section,
        `latency 1 s, 1 thread, C=${many}`,
        many,
        b,
        floor,
        idle,
      ),
    );
    const pool = pools.get(cores);
    if (pool) {
      // The default (one thread per core): episodes run on the pool's threads, and the main loop,
      // the one that writes records and answers a trainer, only takes their records.
      ctx.log(
        `episodes: latency ${LATENCY_MS} ms, ${cores} threads, C=${many} (event-loop stalls)`,
      );
      const b = await batch(ctx, env, model, cpu, {
        workers: cores,
        concurrency: many,
        episodes: many,
        delayMs: LATENCY_MS,
        watch: machine,
        pool,
      });
      rows.push(
        ...batchRows(section, `latency 1 s, ${cores} threads, C=${many}`, many, b, floor, idle),
      );
    }
  } finally {
    for (const pool of pools.values()) pool.close();
    await model.close();
    await machine.close();
    await cpu.close();
  }
  if (cpu.unavailable) {
    rows.push(makeRow({
      section,
      figure: "child CPU not measured",
      unit: "-",
      note: `Child CPU per episode needs cgroup v1 cpuacct: ${cpu.unavailable}`,
    }));
  }
  return rows;
}

/** What one batch measured. */
interface Batch {
  wallMs: number;
  episodes: number;
  selfMs: number;
  childMs: number | null;
  peakRss: number;
  rssBefore: number;
  /** Null when the batch ran without the stall monitor (whose timer costs CPU of its own). */
  stalls: Stalls | null;
  /** The independent monitor's stalls during the batch (see `MachineStalls`), with `stalls`. */
  machineStalls: Stalls | null;
  /** Samples whose test run timed out (allowed only in the stall batch). */
  timeouts: number;
}

/** One batch: `episodes` samples, `concurrency` at a time, on `workers` threads. */
interface BatchPlan {
  workers: number;
  concurrency: number;
  episodes: number;
  delayMs: number;
  /** Run the 1 ms stall monitor alongside, and the same monitor in a process of its own. */
  watch?: MachineStalls;
  /** Started threads to run on (`workers` > 1). */
  pool?: WorkerPool;
}

/**
 * Run a batch through `runRollout` (records, summary and report written as a real run writes
 * them) and measure it whole.
 */
async function batch(
  ctx: BenchContext,
  env: Environment,
  model: FakeModel,
  cpu: CpuMeter,
  plan: BatchPlan,
): Promise<Batch> {
  const { workers, concurrency, episodes, delayMs } = plan;
  const runId = `bench-${workers}-${concurrency}-${delayMs}-${crypto.randomUUID().slice(0, 8)}`;
  const outDir = subdir(ctx, `runs/${runId}`);
  const config = fakeRunConfig({
    runId,
    tasks: [TASK],
    samples: episodes,
    baseUrl: model.baseUrl,
    plan: PLAN,
    delayMs,
  });
  const rssBefore = Deno.memoryUsage().rss;
  const rss = new RssSampler(20);
  await plan.watch?.begin();
  const stalls = plan.watch ? new StallMonitor() : null;
  let timeouts = 0;
  const started = performance.now();
  const { value: result, selfMs, childMs } = await cpu.measure(() =>
    runRollout({
      environment: env,
      outDir,
      config,
      // One thread: this process's own policies, on the fake model's private HTTP client.
      policyFor: () =>
        new OpenAIPolicy({
          baseUrl: model.baseUrl,
          model: fakeModelName(PLAN, delayMs),
          maxRetries: 0,
          fetch: model.fetch,
        }),
      concurrency,
      workers,
      pool: plan.pool,
      // With hundreds of samples on a few cores, a test run can outlast its timeout: counted.
      onRecord: (record) => {
        if (!plan.watch) return checkRecord(record);
        if (record.turns.some((t) => t.tool?.code === "timeout")) timeouts++;
        else checkRecord(record);
      },
    })
  );
  const wallMs = performance.now() - started;
  const measured = {
    stalls: stalls?.stop() ?? null,
    machineStalls: (await plan.watch?.end()) ?? null,
    peakRss: rss.stop(),
  };
  if (result.ran.length !== episodes) {
    throw new Error(`Batch ran ${result.ran.length} of ${episodes} episodes`);
  }
  await Deno.remove(outDir, { recursive: true });
  await model.holds(); // drop the server's record of this batch
  return { wallMs, episodes, selfMs, childMs, rssBefore, timeouts, ...measured };
}

/**
 * The orchestrator's CPU per episode over {@linkcode LONG_EPISODES_PER_THREAD} episodes per thread
 * at latency 0 on all cores (`run`: a batch of C at once, E in all, on the all-cores pool).
 */
async function longBatch(
  ctx: BenchContext,
  cores: number,
  run: (concurrency: number, episodes: number) => Promise<Batch>,
  oneThreadCpu: number | null,
): Promise<Row> {
  const concurrency = Math.min(MAX_CONCURRENCY, PER_THREAD.concurrency * cores);
  const episodes = LONG_EPISODES_PER_THREAD * cores;
  const label = `latency 0, ${cores} thread${cores > 1 ? "s" : ""}, C=${concurrency}`;
  ctx.log(`episodes: ${label}, a long batch of ${episodes} episodes`);
  const b = await run(concurrency, episodes);
  return makeRow({
    section: "4b graded episodes",
    figure: `orchestrator CPU per episode, ${label}, ${episodes} episodes`,
    unit: "ms",
    summary: { median: b.selfMs / episodes, p95: null, n: episodes },
    baseline: oneThreadCpu === null ? null : { name: "1 thread, short batch", value: oneThreadCpu },
    target: { text: "<= 5 ms", metric: "median", op: "<=", value: 5 },
    note:
      `What a long run costs once the threads' code is compiled: ${LONG_EPISODES_PER_THREAD} episodes per thread (the short batches above: ${PER_THREAD.episodes}, after a warm-up of ${PER_THREAD.concurrency})`,
  });
}

function batchRows(
  section: string,
  label: string,
  concurrency: number,
  b: Batch,
  floor: Floor,
  idle: Stalls,
  oneThreadCpu: number | null = null,
  bareCpuAtC: number | null = null,
): Row[] {
  // The monitors' CPU is not subtracted: on a loaded machine their idle rate overstates it.
  const selfMs = b.selfMs;
  const rows = [
    makeRow({
      section,
      figure: `orchestrator CPU per episode, ${label}`,
      unit: "ms",
      summary: { median: selfMs / b.episodes, p95: null, n: b.episodes },
      baseline: oneThreadCpu === null ? null : { name: "1 thread", value: oneThreadCpu },
      target: { text: "<= 5 ms", metric: "median", op: "<=", value: 5 },
    }),
    makeRow({
      section,
      figure: `child CPU per episode, ${label}`,
      unit: "ms",
      summary: b.childMs === null
        ? undefined
        : { median: b.childMs / b.episodes, p95: null, n: b.episodes },
      // Beside the bare runs at the same concurrency where the batch has them (latency 0), else
      // beside the bare runs one at a time, which cost less (see `bareThroughput`).
      baseline: bareCpuAtC === null
        ? { name: "bare test runs, one at a time", value: floor.cpuMs }
        : { name: "bare test runs, same C", value: bareCpuAtC },
      target: { text: "<= 1.2x bare", metric: "ratio", op: "<=", value: 1.2 },
      note: bareCpuAtC === null
        ? undefined
        : `the same bare runs one at a time: ${floor.cpuMs.toFixed(1)} ms (${
          (b.childMs === null ? NaN : b.childMs / b.episodes / floor.cpuMs).toFixed(2)
        }x)`,
    }),
  ];
  if (b.stalls) {
    const machine = b.machineStalls;
    if (machine) {
      rows.push(makeRow({
        section,
        figure: `stall max / p99 of a process doing nothing else, during the batch, ${label}`,
        unit: "ms",
        summary: { median: machine.max, p95: machine.p99, n: machine.n },
        baseline: { name: "idle loop max", value: idle.max },
        note: label === "latency 1 s, 1 thread, C=256" || label === "latency 1 s, 1 thread, C=64"
          ? "The same 1 ms timer in a process of its own, same priority and scheduling group: what the machine itself imposes while the batch runs, the baseline of the main loop's row"
          : undefined,
      }));
    }
    rows.push(makeRow({
      section,
      figure: `main event-loop stall max / p99, ${label}`,
      unit: "ms",
      summary: { median: b.stalls.max, p95: b.stalls.p99, n: b.stalls.n },
      baseline: machine
        ? { name: "a process doing nothing else, max", value: machine.max }
        : { name: "idle loop max", value: idle.max },
      target: { text: "max < 5 ms", metric: "median", op: "<", value: 5 },
      note: b.timeouts > 0
        ? `${b.timeouts} of the ${b.episodes} samples had a test run outlast its 20 s timeout: ${concurrency} samples' tests on ${navigator.hardwareConcurrency} cores`
        : undefined,
    }));
  }
  if (concurrency >= 16) {
    rows.push(makeRow({
      section,
      figure: `peak RSS per concurrent episode, ${label}`,
      unit: "MB",
      summary: {
        median: (b.peakRss - b.rssBefore) / concurrency / 1024 ** 2,
        p95: null,
        n: concurrency,
      },
      baseline: { name: "RSS before the batch", value: b.rssBefore / 1024 ** 2 },
      target: { text: "< 1 MB", metric: "median", op: "<", value: 1 },
    }));
  }
  return rows;
}

/**
 * Start a pool of `workers` threads into `pools` and measure its start-up apart: the wall and this
 * process's CPU until every thread has loaded its modules and opened the environment.
 */
async function startPool(
  ctx: BenchContext,
  env: Environment,
  cpu: CpuMeter,
  pools: Map<number, WorkerPool>,
  workers: number,
): Promise<Row[]> {
  const section = "4b graded episodes";
  ctx.log(`episodes: starting ${workers} worker threads`);
  const started = performance.now();
  const { selfMs } = await cpu.measure(async () => {
    const pool = new WorkerPool(env, workers);
    pools.set(workers, pool);
    await pool.ready;
  });
  const wallMs = performance.now() - started;
  const note = workers === 2
    ? "A WorkerPool from its start to every thread ready (modules loaded, environment opened, isolation not probed again); paid once per run or server, so kept out of the throughput rows"
    : undefined;
  return [
    makeRow({
      section,
      figure: `worker pool start-up, ${workers} threads, wall to ready`,
      unit: "ms",
      summary: { median: wallMs, p95: null, n: 1 },
      note,
    }),
    makeRow({
      section,
      figure: `worker pool start-up, ${workers} threads, CPU to ready`,
      unit: "ms",
      summary: { median: selfMs, p95: null, n: workers },
      baseline: null,
    }),
  ];
}

/**
 * The floor: the tests one episode runs (the visible tests after the fix, then visible and
 * hidden tests), run bare; and, for the breakdown, the same runs through the sandbox and a whole
 * `env.grade`.
 */
async function baselines(
  ctx: BenchContext,
  env: Environment,
  task: Task,
  patch: string,
  cpu: CpuMeter,
): Promise<{ floor: Floor; bare: (concurrency: number) => Promise<BareBatch>; rows: Row[] }> {
  const section = "4b graded episodes";
  const prepared = await preparedCopy(env, task, patch);
  const { dir } = prepared;
  const warm = task.spec.runner === "unittest" ? new WarmInterpreter() : null;
  try {
    const { visible_tests: visible, hidden_tests: hidden } = task.spec;
    const all = [...visible, ...hidden];
    const bare = (files: string[]) => {
      const [program, ...args] = bareTestCommand(task, dir, files);
      return () => spawnChecked(program, args, dir);
    };
    // The same sandbox with every run started in its jail (`--cold-python`), beside the default.
    const cold = new Sandbox({
      isolation: env.isolation,
      denoPath: env.sandbox.denoPath,
      warm: false,
    });
    const sandboxed = (files: string[], sandbox = env.sandbox) => () =>
      runTests(sandbox, {
        runner: task.spec.runner,
        dir,
        files,
        timeoutMs: 60_000,
        ...prepared.testRun,
      });
    const cases: Record<string, () => Promise<unknown>> = {
      bareVisible: bare(visible),
      bareAll: bare(all),
      sandboxVisible: sandboxed(visible),
      sandboxVisibleCold: sandboxed(visible, cold),
      grade: () => env.grade(task, patch),
    };
    // What the same runs cost without the interpreter's start and unittest's import.
    if (warm) {
      cases.warmVisible = () => warm.unittest(dir, visible);
      cases.warmAll = () => warm.unittest(dir, all);
    }
    const measured: Record<string, { cpu: number[]; wall: number[] }> = {};
    for (const [name, body] of Object.entries(cases)) {
      await body();
      measured[name] = { cpu: [], wall: [] };
    }
    // Interleaved, so that each case sees the same machine state.
    for (let i = 0; i < BASELINE_RUNS; i++) {
      for (const [name, body] of Object.entries(cases)) {
        const started = performance.now();
        const { childMs } = await cpu.measure(body);
        measured[name].wall.push(performance.now() - started);
        measured[name].cpu.push(childMs ?? NaN);
      }
    }
    const median = (name: string, what: "cpu" | "wall") => summarize(measured[name][what]).median;
    const floor = {
      cpuMs: median("bareVisible", "cpu") + median("bareAll", "cpu"),
      wallMs: median("bareVisible", "wall") + median("bareAll", "wall"),
    };
    ctx.log(
      `episodes: bare tests per episode ${floor.cpuMs.toFixed(1)} ms CPU, ${
        floor.wallMs.toFixed(1)
      } ms wall`,
    );
    const rows = [
      makeRow({
        section,
        figure: "bare test runs of one episode (visible + all), child CPU",
        unit: "ms",
        summary: { median: floor.cpuMs, p95: null, n: BASELINE_RUNS },
        note: `The tests an episode runs, bare: ${
          bareTestCommand(task, dir, visible).slice(1).join(" ")
        } (what run_tests runs), then the same with the hidden tests (what grading runs), on a copy with the fix; CPU from the cgroup (cpuacct) minus this process's own`,
      }),
      makeRow({
        section,
        figure: "bare test runs of one episode, wall",
        unit: "ms",
        summary: { median: floor.wallMs, p95: null, n: BASELINE_RUNS },
      }),
      ...(warm
        ? [makeRow({
          section,
          figure: "the same test runs forked from a warm interpreter, child CPU",
          unit: "ms",
          summary: {
            median: median("warmVisible", "cpu") + median("warmAll", "cpu"),
            p95: null,
            n: BASELINE_RUNS,
          },
          baseline: { name: "bare test runs of one episode", value: floor.cpuMs },
          note:
            "Measurement only, no jail and no reporter: a python3 with unittest imported once forks a child per run (bench/_warm.ts), so a run pays neither the interpreter's start nor the framework's import; what a warm jailed interpreter could leave of the bare runs' CPU (docs/benchmarks.md, Ninth round)",
        })]
        : []),
      makeRow({
        section,
        figure: "run_tests' run through the sandbox, child CPU",
        unit: "ms",
        values: measured.sandboxVisible.cpu,
        baseline: { name: "bare", value: median("bareVisible", "cpu") },
      }),
      makeRow({
        section,
        figure: "run_tests' run through the sandbox, every run started in its jail, child CPU",
        unit: "ms",
        values: measured.sandboxVisibleCold.cpu,
        baseline: { name: "bare", value: median("bareVisible", "cpu") },
        note:
          "--cold-python: no warm interpreter (as before the tenth round, and as without root); the row above forks the run's program from it where it can (docs/sandbox.md, Warm Python runs)",
      }),
      makeRow({
        section,
        figure: "env.grade (copy, canaries, run), child CPU",
        unit: "ms",
        values: measured.grade.cpu,
        baseline: { name: "bare", value: median("bareAll", "cpu") },
      }),
      makeRow({
        section,
        figure: "env.grade, wall",
        unit: "ms",
        values: measured.grade.wall,
        baseline: { name: "bare", value: median("bareAll", "wall") },
      }),
    ];
    return {
      floor,
      bare: (concurrency) => bareThroughput(env, task, patch, concurrency, cpu),
      rows,
    };
  } finally {
    await warm?.close();
    await prepared.remove();
  }
}

/** The bare tests at one concurrency: episodes' worth of test runs, C at once. */
interface BareBatch {
  /** Episodes per second. */
  rate: number;
  /** Children's CPU per episode, ms (null without cpuacct). */
  cpuMs: number | null;
}

/**
 * The bare tests' own throughput, episodes/s, and their CPU per episode at that concurrency:
 * `concurrency` loops (as many as the episode batch it is compared with runs at once), each running
 * an episode's two runs bare, on every core. A process's CPU time grows when it shares the cores
 * (caches, the other hardware thread of a core): on this project's 2-vCPU machine a test run costs
 * about a tenth more at C=8 than alone, and an episode's children the same, so the episodes' child
 * CPU is compared with this figure, measured under the same load.
 */
async function bareThroughput(
  env: Environment,
  task: Task,
  patch: string,
  concurrency: number,
  cpu: CpuMeter,
): Promise<BareBatch> {
  const prepared = await preparedCopy(env, task, patch);
  const { dir } = prepared;
  try {
    const { visible_tests: visible, hidden_tests: hidden } = task.spec;
    const bare = (files: string[]) => {
      const [program, ...args] = bareTestCommand(task, dir, files);
      return spawnChecked(program, args, dir);
    };
    const episodes = Math.max(
      2 * concurrency,
      navigator.hardwareConcurrency * BARE_EPISODES_PER_CORE,
    );
    let next = 0;
    const started = performance.now();
    const { childMs } = await cpu.measure(() =>
      Promise.all(Array.from({ length: concurrency }, async () => {
        while (next++ < episodes) {
          await bare(visible);
          await bare([...visible, ...hidden]);
        }
      }))
    );
    return {
      rate: (episodes * 1000) / (performance.now() - started),
      cpuMs: childMs === null ? null : childMs / episodes,
    };
  } finally {
    await prepared.remove();
  }
}

function checkRecord(record: RecordDigest): void {
  const failed = record.turns.find((t) => t.tool && !t.tool.ok);
  if (
    record.stop_reason !== "submitted" || record.turns.length !== TURNS || failed ||
    !record.reward?.resolved
  ) {
    throw new Error(
      `Episode did not follow the plan: ${record.stop_reason}, ${record.turns.length} turns, reward ${
        record.reward?.total ?? null
      }, ${JSON.stringify(record.error ?? failed?.tool?.output ?? record.reward ?? null)}`,
    );
  }
}
