import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RunSlots } from "../../src/sandbox/run_slots.ts";
import { probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";
import { runTests } from "../../src/sandbox/test_runner.ts";
import { UserPool } from "../../src/sandbox/users.ts";

/** A hold long enough that no test here ever reaches it. */
const NEVER = 3_600_000;

Deno.test("RunSlots lets the first N runs in and the rest wait, first come first served", async () => {
  const slots = new RunSlots(2, { holdMs: NEVER });
  const a = await slots.take();
  const b = await slots.take();
  const order: string[] = [];
  const c = slots.take().then((give) => (order.push("c"), give));
  const d = slots.take().then((give) => (order.push("d"), give));
  await Promise.resolve();
  assert.equal(slots.waiting, 2);
  assert.deepEqual(order, []);
  b();
  const giveC = await c;
  assert.deepEqual(order, ["c"]);
  assert.equal(slots.waiting, 1);
  // A slot given up twice counts once: d still waits.
  b();
  await Promise.resolve();
  assert.deepEqual(order, ["c"]);
  a();
  (await d)();
  giveC();
  assert.deepEqual(order, ["c", "d"]);
  assert.equal(slots.waiting, 0);
  // Every slot is free again: two takes do not wait.
  (await slots.take())();
});

Deno.test("RunSlots gives a slot held past its hold time to the next waiting run", async () => {
  const slots = new RunSlots(1, { holdMs: 5 });
  const hog = await slots.take();
  // Resolves only because the hog's slot is given up for it; it never calls `hog`.
  const next = await slots.take();
  next();
  hog();
  assert.equal(slots.waiting, 0);
});

Deno.test("RunSlots.tryTake() takes a free slot, and none while every slot is held or a run waits", async () => {
  const slots = new RunSlots(2, { holdMs: NEVER });
  const first = slots.tryTake();
  assert.ok(first);
  const second = await slots.take();
  assert.equal(slots.tryTake(), null, "every slot is held");
  const waiting = slots.take();
  first();
  // The slot given up went to the waiting run, not back to the count.
  const third = await waiting;
  assert.equal(slots.tryTake(), null);
  second();
  const fourth = slots.tryTake();
  assert.ok(fourth, "a slot is free again");
  third();
  fourth();
});

Deno.test("RunSlots refuses a count that is not a whole number of at least 1", () => {
  for (const bad of [0, -1, 1.5, NaN]) {
    assert.throws(() => new RunSlots(bad), RangeError);
  }
});

Deno.test("Sandbox.run() starts a run only when a slot is free", async () => {
  const isolation = await probeIsolation();
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-slots-" }));
  try {
    const sandbox = new Sandbox({ isolation, runSlots: new RunSlots(1, { holdMs: NEVER }) });
    assert.equal(sandbox.runSlots, 1);
    const log = join(base, "ws", "log");
    mkdirSync(join(base, "ws"));
    // Each run writes its start, yields its core for a moment, then writes its end.
    const script = "import sys, time\n" +
      "open('log', 'a').write(sys.argv[1] + ' start\\n')\n" +
      "time.sleep(0.05)\n" +
      "open('log', 'a').write(sys.argv[1] + ' end\\n')";
    const results = await Promise.all(
      ["1", "2", "3"].map((n) =>
        sandbox.run({
          argv: ["python3", "-c", script, n],
          cwd: join(base, "ws"),
          timeoutMs: 30_000,
        })
      ),
    );
    for (const result of results) assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(
      readFileSync(log, "utf8"),
      "1 start\n1 end\n2 start\n2 end\n3 start\n3 end\n",
    );
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("RunSlots lets a run whose signal aborts leave the line, and the line goes on", async () => {
  const slots = new RunSlots(1, { holdMs: NEVER });
  const first = await slots.take();
  const stop = new AbortController();
  const order: string[] = [];
  const leaving = slots.take(stop.signal);
  const after = slots.take().then((give) => (order.push("after"), give));
  await Promise.resolve();
  assert.equal(slots.waiting, 2);
  stop.abort(new Error("stopped"));
  await assert.rejects(leaving, /stopped/);
  assert.equal(slots.waiting, 1);
  // The slot given up goes to the run behind it, not to the one that left.
  first();
  (await after)();
  assert.deepEqual(order, ["after"]);
  // No slot was lost or made: one run gets in at once, a second waits.
  await waitsUntilGiven(slots, await slots.take());
});

Deno.test("RunSlots refuses a run whose signal is already aborted, without taking a slot", async () => {
  const slots = new RunSlots(1, { holdMs: NEVER });
  const stop = new AbortController();
  stop.abort(new Error("stopped"));
  await assert.rejects(slots.take(stop.signal), /stopped/);
  // The one slot is still free.
  (await slots.take())();
});

Deno.test("RunSlots keeps a slot already handed over when the run's signal aborts later", async () => {
  const slots = new RunSlots(1, { holdMs: NEVER });
  const first = await slots.take();
  const stop = new AbortController();
  const waiting = slots.take(stop.signal);
  first();
  const give = await waiting;
  stop.abort();
  // Still held: the next run waits until it is given back.
  await waitsUntilGiven(slots, give);
});

/** With `slots`' one slot held (`give` gives it up): the next run waits until it is given back. */
async function waitsUntilGiven(slots: RunSlots, give: () => void): Promise<void> {
  let entered = false;
  const next = slots.take().then((g) => ((entered = true), g));
  await Promise.resolve();
  assert.equal(entered, false);
  give();
  (await next)();
}

Deno.test("Sandbox.run() never starts a run whose signal aborts while it waits for a slot", async () => {
  const isolation = await probeIsolation();
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-slots-" }));
  try {
    const slots = new RunSlots(1, { holdMs: NEVER });
    const sandbox = new Sandbox({ isolation, runSlots: slots });
    mkdirSync(join(base, "ws"));
    const held = await slots.take();
    const stop = new AbortController();
    const run = sandbox.run({
      argv: ["python3", "-c", "open('ran', 'w').write('ran')"],
      cwd: join(base, "ws"),
      timeoutMs: 30_000,
      signal: stop.signal,
    });
    await Promise.resolve();
    assert.equal(slots.waiting, 1);
    stop.abort(new Error("episode stopped"));
    // Given back before the result is read: a run that ignored the signal would start now.
    held();
    await assert.rejects(run, /episode stopped/);
    assert.equal(existsSync(join(base, "ws", "ran")), false);
    // The sandbox runs on for everyone else.
    const after = await sandbox.run({
      argv: ["python3", "-c", "print('after')"],
      cwd: join(base, "ws"),
      timeoutMs: 30_000,
    });
    assert.equal(after.stdout.trim(), "after", after.stderr);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("runTests() whose signal aborts while it waits for a slot runs nothing and leaves no report folder", async () => {
  const isolation = await probeIsolation();
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-slots-" }));
  try {
    const slots = new RunSlots(1, { holdMs: NEVER });
    const sandbox = new Sandbox({ isolation, runSlots: slots });
    const repo = join(base, "repo");
    mkdirSync(join(repo, "tests"), { recursive: true });
    writeFileSync(
      join(repo, "tests", "test_a.py"),
      "import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        open('ran', 'w')\n",
    );
    const held = await slots.take();
    const stop = new AbortController();
    const run = runTests(sandbox, {
      runner: "unittest",
      dir: repo,
      files: ["tests/test_a.py"],
      timeoutMs: 30_000,
      scratchDir: base,
      signal: stop.signal,
    });
    for (let turn = 0; turn < 1000 && slots.waiting === 0; turn++) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    stop.abort(new Error("episode stopped"));
    held();
    await assert.rejects(run, /episode stopped/);
    assert.equal(existsSync(join(repo, "ran")), false);
    assert.deepEqual(
      [...Deno.readDirSync(base)].map((e) => e.name).filter((n) => n.startsWith(".report-")),
      [],
    );
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("Sandbox.run() never starts a run whose signal aborts while it waits for a uid", async () => {
  const isolation = await probeIsolation();
  if (!isolation.users) {
    console.warn("skipped: no uid leases here (not root with a jail)");
    return;
  }
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-slots-" }));
  try {
    // One uid in the range, leased by another pool over the same lock folder: the run's slot is
    // free, its uid lease waits.
    const users = { first: isolation.users.first, count: 1 };
    const locks = join(base, "uids");
    const other = await new UserPool(users, locks).lease();
    const sandbox = new Sandbox({ isolation: { ...isolation, users }, userLockDir: locks });
    mkdirSync(join(base, "ws"));
    const stop = new AbortController();
    const run = sandbox.run({
      argv: ["python3", "-c", "open('ran', 'w').write('ran')"],
      cwd: join(base, "ws"),
      timeoutMs: 30_000,
      signal: stop.signal,
    });
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setTimeout(resolve, 1));
    stop.abort(new Error("episode stopped"));
    // The uid is given back: a run that ignored the signal would start now.
    other.release();
    await assert.rejects(run, /episode stopped/);
    assert.equal(existsSync(join(base, "ws", "ran")), false);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
