import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { RunClock, type RunWaits, WAIT_GUARD } from "../../src/sandbox/run_clock.ts";
import type { RunResult } from "../../src/sandbox/sandbox.ts";
import { testSandbox } from "../_fixtures.ts";

/** What a look reads: the run's tasks' waits and CPU time, the machine's idle time. */
function waits(waited: number, cpu = 0, machineIdle: number | null = null): RunWaits {
  return { waited, cpu, machineIdle };
}

/**
 * A clock whose run read `first` at its first reading (a tenth of the timeout) and `reads[i]` at
 * its i-th look (the last one again after that), with a fake now that moves by what the clock
 * asked for (a tenth of the timeout, the rest of it, then each time it gave again).
 */
function clockOf(
  timeoutMs: number,
  reads: RunWaits[] | ((look: number) => RunWaits | null),
  first: RunWaits | null = waits(0),
) {
  const readAt = typeof reads === "function"
    ? reads
    : (look: number) => reads[Math.min(look, reads.length - 1)];
  let now = 0;
  let looks = -1;
  let last = 0;
  let expired!: () => void;
  const done = new Promise<void>((resolve) => expired = resolve);
  const clock = new RunClock(
    timeoutMs,
    () => {
      now += looks === -1
        ? timeoutMs / 10
        : looks === 0
        ? timeoutMs * 9 / 10
        : clock.creditedMs - last;
      last = clock.creditedMs;
      return Promise.resolve(looks++ === -1 ? first : readAt(looks - 1));
    },
    () => expired(),
    () => now,
  );
  return { clock, done, looks: () => looks, now: () => now };
}

Deno.test("RunClock: a run that waited for no CPU ends at its timeout", async () => {
  const { clock, done, looks, now } = clockOf(20, [waits(0)]);
  await done;
  assert.equal(looks(), 1);
  assert.equal(now(), 20);
  assert.equal(clock.creditedMs, 0);
});

Deno.test("RunClock: the time a run's tasks waited for a CPU is given again, as often as they waited", async () => {
  const { clock, done, looks, now } = clockOf(100, [waits(40, 30), waits(60, 50), waits(60, 55)]);
  await done;
  assert.equal(looks(), 3);
  assert.equal(clock.creditedMs, 60);
  // Its own time was its timeout: 160 ms on the clock, 60 of them waiting.
  assert.equal(now(), 160);
});

Deno.test("RunClock: tasks that wait side by side are given that time once", async () => {
  // Four tasks waited all along: 400 ms of waits in the first 100, 100 given again; then 50.
  const { clock, done, now } = clockOf(100, [waits(400), waits(450), waits(450)]);
  await done;
  assert.equal(clock.creditedMs, 150);
  assert.equal(now(), 250);
});

Deno.test("RunClock: a run that used the CPU gets the time the machine had none to spare, never one that slept", async () => {
  // From the first reading (at 10 ms) to the timeout, 90 ms: 27 ms of idle CPU added up, so
  // 0.3 CPU idle on average, and 70% of the timeout given again; then 35 ms of 70 idle: a half.
  const busy = clockOf(100, [
    waits(0, 20, 1027),
    waits(0, 30, 1062),
    waits(0, 30, 1062),
  ], waits(0, 1, 1000));
  await busy.done;
  assert.equal(busy.clock.creditedMs, 70 + 35);
  // A run that slept: the machine was just as busy, and it gets nothing.
  const sleeping = clockOf(100, [waits(0, 0, 1027)], waits(0, 0, 1000));
  await sleeping.done;
  assert.equal(sleeping.clock.creditedMs, 0);
  // A CPU or more idle on average: the run could have had one, and waited for none.
  const spare = clockOf(100, [waits(0, 50, 1090)], waits(0, 1, 1000));
  await spare.done;
  assert.equal(spare.clock.creditedMs, 0);
  // A run whose tasks waited more than that: the more of the two.
  const both = clockOf(100, [waits(90, 20, 1027), waits(90, 20, 1027)], waits(0, 1, 1000));
  await both.done;
  assert.equal(both.clock.creditedMs, 80);
  // Without the machine's idle time (at the first reading or at all): the tasks' waits only.
  for (const first of [null, waits(0)]) {
    const unknown = clockOf(100, [waits(10, 20, 1027)], first);
    await unknown.done;
    assert.equal(unknown.clock.creditedMs, 10);
  }
});

Deno.test("RunClock: a run's own time is at least its CPU time: a busy loop ends at its timeout", async () => {
  const { clock, done } = clockOf(100, [waits(500, 95, 1000)], waits(0, 9, 1000));
  await done;
  assert.equal(clock.creditedMs, 0);
  const half = clockOf(100, [waits(500, 50, 1000), waits(1000, 96, 1000)], waits(0, 5, 1000));
  await half.done;
  assert.equal(half.clock.creditedMs, 50);
});

Deno.test("RunClock: a sum that fell (tasks that ended took their waits along) gives nothing", async () => {
  const { clock, done } = clockOf(20, [waits(15), waits(5), waits(20)]);
  await done;
  assert.equal(clock.creditedMs, 15);
});

Deno.test("RunClock: less than a hundredth of the timeout (or 10 ms) is not given again", async () => {
  const { clock, done } = clockOf(1100, [waits(10.5)]);
  await done;
  assert.equal(clock.creditedMs, 0);
  const short = clockOf(20, [waits(9)]);
  await short.done;
  assert.equal(short.clock.creditedMs, 0);
});

Deno.test("RunClock: never more than WAIT_GUARD times the timeout, whatever the run waited", async () => {
  // A run that waits all the time (its tasks more than the cores) makes no progress of its own.
  const { clock, done, now } = clockOf(20, (look) => waits((look + 1) * 1e6));
  await done;
  assert.equal(clock.creditedMs, 20 * (WAIT_GUARD - 1));
  assert.equal(now(), 20 * WAIT_GUARD);
});

Deno.test("RunClock: a run that ended is never expired, not even while its waits are read", async () => {
  let expired = 0;
  const early = new RunClock(10, () => Promise.resolve(waits(0)), () => expired++);
  early.stop();
  let answer!: (read: RunWaits) => void;
  let asked!: () => void;
  const reading = new Promise<void>((resolve) => asked = resolve);
  const late = new RunClock(10, () => {
    asked();
    return new Promise<RunWaits>((resolve) => answer = resolve);
  }, () => expired++);
  await reading;
  late.stop();
  answer(waits(0));
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(expired, 0);
});

Deno.test("RunClock: a run whose CPU time no cgroup counts gets nothing: it could hide the CPU it uses", async () => {
  const { clock, done } = clockOf(100, [{ waited: 500, cpu: null, machineIdle: 1000 }], {
    waited: 0,
    cpu: null,
    machineIdle: 1000,
  });
  await done;
  assert.equal(clock.creditedMs, 0);
});

Deno.test("RunClock: waits that cannot be read count as none", async () => {
  for (const read of [() => Promise.reject(new Error("no helper")), () => Promise.resolve(null)]) {
    let expired!: () => void;
    const done = new Promise<void>((resolve) => expired = resolve);
    const clock = new RunClock(10, read, () => expired());
    await done;
    assert.equal(clock.creditedMs, 0);
  }
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

/** Whether the tests' sandbox counts its runs' CPU time (a cgroup that does), with a note if not. */
async function clockCounts(): Promise<boolean> {
  const sandbox = await testSandbox();
  if (sandbox.isolation.cgroup?.cpu) return true;
  console.warn("skipped: no cgroup counts the sandbox's CPU time here (runs get no time back)");
  return false;
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

/**
 * Run `code` (0.15 s of CPU) beside two busy loops per core, with a timeout of 250 ms: on a quiet
 * machine it ends well within it; at niceness 10 beside the loops it needs several times its
 * timeout (beside one loop per core it got 10% to 28% of a core, here and in CI), so its timeout
 * comes while it still runs, and only what it is given back lets it finish.
 */
async function starvedRun(code: string): Promise<void> {
  if (!await clockCounts()) return;
  const timeoutMs = 250;
  // The sandbox's first run starts what later runs reuse: not on the clock of the one measured.
  await runIn(["true"], 10_000);
  const result = await besideBusyLoops(
    2 * navigator.hardwareConcurrency,
    () => runIn(["python3", "-c", code], timeoutMs),
  );
  const said = JSON.stringify(result);
  if (!result.timedOut && result.durationMs < timeoutMs) {
    // The scheduler favours a task that sleeps often (a thread's start and join) over busy loops.
    console.warn(`skipped: the run was not starved here (${Math.round(result.durationMs)} ms)`);
    return;
  }
  assert.ok(result.waitedMs > 0, `no wait given back: ${said}`);
  if (result.timedOut) {
    // A machine busier still: then it ran on long past its timeout before it was stopped.
    assert.ok(result.durationMs >= 2 * timeoutMs, said);
  } else {
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.stdout, "done\n");
  }
}

Deno.test("Sandbox.run(): a run that busy programs starve of CPU gets its wait back", async () => {
  await starvedRun(
    "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.15: pass\nprint('done')",
  );
});

Deno.test("Sandbox.run(): a run whose work is done by threads that come and go gets their wait back", async () => {
  // Threads of a few ms each, one after the other: each thread's wait ends with it, and only its
  // CPU time is left in the process's.
  await starvedRun([
    "import threading, time",
    "def work():",
    "    t = time.thread_time()",
    "    while time.thread_time() - t < 0.005: pass",
    "t = time.process_time()",
    "while time.process_time() - t < 0.15:",
    "    worker = threading.Thread(target=work)",
    "    worker.start()",
    "    worker.join()",
    "print('done')",
  ].join("\n"));
});

Deno.test("Sandbox.run(): a run that sleeps is stopped at its timeout, however busy the machine", async () => {
  const timeoutMs = 1000;
  const result = await besideBusyLoops(
    2 * navigator.hardwareConcurrency,
    () => runIn(["tail", "-f", "/dev/null"], timeoutMs),
  );
  assert.equal(result.timedOut, true);
  // Only the wait of its start (its jail's making) is given back, never its sleep.
  assert.ok(result.waitedMs < timeoutMs, JSON.stringify(result));
});

Deno.test("Sandbox.run(): a run that hides its CPU in children no one reaps ends at its timeout", async () => {
  if (!await clockCounts()) return;
  // Found by the red team: children reaped by the kernel (SIGCHLD ignored) leave their CPU time in
  // no process's, so the run looked as if others kept the cores busy and got 3.5 times its
  // timeout, with 6.5 times its CPU. Its cgroup counts every process it held.
  const timeoutMs = 1000;
  const result = await runIn([
    "python3",
    "-c",
    [
      "import os, signal, time",
      "signal.signal(signal.SIGCHLD, signal.SIG_IGN)",
      "while True:",
      "    for _ in range(2):",
      "        if os.fork() == 0:",
      "            t = time.process_time()",
      "            while time.process_time() - t < 0.03: pass",
      "            os._exit(0)",
      "    t = time.process_time()",
      "    while time.process_time() - t < 0.0015: pass",
      "    time.sleep(0.03)",
    ].join("\n"),
  ], timeoutMs);
  assert.equal(result.timedOut, true);
  assert.ok(result.waitedMs < timeoutMs, JSON.stringify(result));
});

Deno.test("Sandbox.run(): a run that starves itself (more busy processes than cores) ends by its CPU time", async () => {
  const timeoutMs = 200;
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
