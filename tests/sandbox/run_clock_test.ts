import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { RunClock, WAIT_GUARD } from "../../src/sandbox/run_clock.ts";
import type { RunResult } from "../../src/sandbox/sandbox.ts";
import { testSandbox } from "../_fixtures.ts";

/**
 * A clock whose run said its tasks had waited `waits[i]` ms for a CPU (added up) at its i-th look,
 * with a fake now that moves by what the clock asked for (the timeout, then each wait it gave
 * again).
 */
function clockOf(timeoutMs: number, waits: number[] | ((look: number) => number)) {
  const waitAt = typeof waits === "function"
    ? waits
    : (look: number) => waits[Math.min(look, waits.length - 1)];
  let now = 0;
  let checks = 0;
  let last = 0;
  let expired!: () => void;
  const done = new Promise<void>((resolve) => expired = resolve);
  const clock = new RunClock(
    timeoutMs,
    () => {
      // The clock asked to be woken after its timeout, then after each wait it gave again.
      now += checks === 0 ? timeoutMs : clock.creditedMs - last;
      last = clock.creditedMs;
      return Promise.resolve(waitAt(checks++));
    },
    () => expired(),
    () => now,
  );
  return { clock, done, checks: () => checks, now: () => now };
}

Deno.test("RunClock: a run that waited for no CPU ends at its timeout", async () => {
  const { clock, done, checks } = clockOf(20, [0]);
  await done;
  assert.equal(checks(), 1);
  assert.equal(clock.creditedMs, 0);
});

Deno.test("RunClock: the time a run waited for a CPU is given again, as often as it waited", async () => {
  const { clock, done, checks, now } = clockOf(20, [15, 25, 25]);
  await done;
  assert.equal(checks(), 3);
  assert.equal(clock.creditedMs, 25);
  // Its own time was its timeout: 45 ms on the clock, 25 of them waiting.
  assert.equal(now(), 45);
});

Deno.test("RunClock: tasks that wait side by side are given that time once", async () => {
  // Four tasks waited all along: 80 ms of waits in the first 20 ms, 20 ms given again; then
  // waits of 40 in those 20, 20 given again; then none.
  const { clock, done, now } = clockOf(20, [80, 120, 120]);
  await done;
  assert.equal(clock.creditedMs, 40);
  assert.equal(now(), 60);
});

Deno.test("RunClock: a sum that fell (tasks that ended took their waits along) gives nothing", async () => {
  const { clock, done } = clockOf(20, [15, 5, 20, 20]);
  await done;
  // 15 given, then a sum that fell (an ended task took its waits along): nothing more.
  assert.equal(clock.creditedMs, 15);
});

Deno.test("RunClock: a wait below a hundredth of the timeout (or 10 ms) is not given again", async () => {
  const { clock, done } = clockOf(1100, [10.5]);
  await done;
  assert.equal(clock.creditedMs, 0);
  const short = clockOf(20, [9]);
  await short.done;
  assert.equal(short.clock.creditedMs, 0);
});

Deno.test("RunClock: never more than WAIT_GUARD times the timeout, whatever the run waited", async () => {
  // A run that waits all the time (its tasks more than the cores) makes no progress of its own.
  const { clock, done, now } = clockOf(20, (look) => (look + 1) * 1e6);
  await done;
  assert.equal(clock.creditedMs, 20 * (WAIT_GUARD - 1));
  assert.equal(now(), 20 * WAIT_GUARD);
});

Deno.test("RunClock: a run that ended is never expired, not even while its wait is read", async () => {
  let expired = 0;
  const early = new RunClock(10, () => Promise.resolve(0), () => expired++);
  early.stop();
  let answer!: (ms: number) => void;
  let asked!: () => void;
  const reading = new Promise<void>((resolve) => asked = resolve);
  const late = new RunClock(10, () => {
    asked();
    return new Promise<number>((resolve) => answer = resolve);
  }, () => expired++);
  await reading;
  late.stop();
  answer(0);
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(expired, 0);
});

Deno.test("RunClock: a wait that cannot be read counts as none", async () => {
  let expired!: () => void;
  const done = new Promise<void>((resolve) => expired = resolve);
  const clock = new RunClock(10, () => Promise.reject(new Error("no helper")), () => expired());
  await done;
  assert.equal(clock.creditedMs, 0);
});

/**
 * Run `fn` beside `count` busy loops at niceness 0 (a trainer's data loaders, say), which take
 * the cores from the sandbox's runs at their niceness of 10.
 */
async function besideBusyLoops<T>(count: number, fn: () => Promise<T>): Promise<T> {
  const loops = Array.from({ length: count }, () =>
    new Deno.Command("sh", {
      args: ["-c", "while :; do :; done"],
      stdout: "null",
      stderr: "null",
    }).spawn());
  try {
    return await fn();
  } finally {
    for (const loop of loops) {
      loop.kill("SIGKILL");
      await loop.status;
    }
  }
}

/** Run `argv` in a fresh workspace of the tests' sandbox, with a timeout of `timeoutMs`. */
async function runIn(argv: string[], timeoutMs: number): Promise<RunResult> {
  const sandbox = await testSandbox();
  const ws = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-clock-" }));
  try {
    return await sandbox.run({ argv, cwd: ws, timeoutMs });
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
}

Deno.test("Sandbox.run(): a run that busy programs starve of CPU gets its wait back", async () => {
  const timeoutMs = 800;
  // The sandbox's first run starts what later runs reuse: not on the clock of the one measured.
  await runIn(["true"], 10_000);
  // A tenth of a second of CPU: at niceness 10 beside a busy loop per core, about 1.2 s of wall.
  const result = await besideBusyLoops(navigator.hardwareConcurrency, () =>
    runIn([
      "python3",
      "-c",
      "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.1: pass\nprint('done')",
    ], timeoutMs));
  assert.ok(result.waitedMs > 0, `no wait given back: ${JSON.stringify(result)}`);
  if (result.timedOut) {
    // A machine busier still: the run had all a run may have.
    assert.equal(result.waitedMs, timeoutMs * (WAIT_GUARD - 1), JSON.stringify(result));
  } else {
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.stdout, "done\n");
  }
});

Deno.test("Sandbox.run(): a run that sleeps is stopped at its timeout, however busy the machine", async () => {
  const timeoutMs = 1000;
  const result = await besideBusyLoops(
    2 * navigator.hardwareConcurrency,
    () => runIn(["tail", "-f", "/dev/null"], timeoutMs),
  );
  assert.equal(result.timedOut, true);
  // Only the wait of its start (its jail's making) is given back, never its sleep.
  assert.ok(result.waitedMs < timeoutMs * (WAIT_GUARD - 1), JSON.stringify(result));
});

Deno.test("Sandbox.run(): a run that starves itself (more busy processes than cores) ends by the guard", async () => {
  const timeoutMs = 500;
  const started = performance.now();
  const result = await runIn([
    "python3",
    "-c",
    `import os\nfor _ in range(${
      4 * navigator.hardwareConcurrency
    }):\n    if os.fork() == 0:\n        while True: pass\nwhile True: pass`,
  ], timeoutMs);
  const took = performance.now() - started;
  assert.equal(result.timedOut, true);
  assert.ok(result.waitedMs <= timeoutMs * (WAIT_GUARD - 1), JSON.stringify(result));
  assert.ok(took >= timeoutMs, `ended after ${took} ms`);
});
