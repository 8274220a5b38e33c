/**
 * Red-team tests of run slots (src/sandbox/run_slots.ts, `Sandbox.run`): what one episode's runs
 * can do to another's by holding the slots. A run's time budget must start when its process
 * starts, never while it waits for a slot that other episodes' runs hold.
 */
import assert from "node:assert/strict";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { JEST_MAJOR } from "../../src/sandbox/_jest_driver.ts";
import { RunSlots } from "../../src/sandbox/run_slots.ts";
import {
  probeIsolation,
  type RunRequest,
  type RunResult,
  Sandbox,
} from "../../src/sandbox/sandbox.ts";
import { SandboxError } from "../../src/errors.ts";
import { runTests, type TestEnvironment, type TestRun } from "../../src/sandbox/test_runner.ts";

/** A hold long enough that no test here ever reaches it. */
const NEVER = 3_600_000;

/** Resolves once `ready()` is true (checked every millisecond). */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** Resolves once at least `ms` have passed since `since` (performance.now()). */
async function waitPast(since: number, ms: number): Promise<void> {
  while (performance.now() - since < ms) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * A jest repository with two test files and an npm environment that names jest's major version
 * (enough for runTests to start a run per file; the runs themselves may fail).
 */
function jestRepo(base: string): { dir: string; environment: TestEnvironment } {
  const dir = join(base, "repo");
  mkdirSync(join(dir, "tests"), { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "name": "r", "private": true }\n');
  writeFileSync(join(dir, "tests", "a.test.js"), 'test("a", () => {});\n');
  writeFileSync(join(dir, "tests", "b.test.js"), 'test("b", () => {});\n');
  const modules = join(base, "node_modules");
  mkdirSync(join(modules, "jest"), { recursive: true });
  writeFileSync(
    join(modules, "jest", "package.json"),
    JSON.stringify({ name: "jest", version: `${JEST_MAJOR}.0.0` }),
  );
  return {
    dir,
    environment: {
      mounts: [],
      pythonPaths: [],
      sourceRoots: [],
      pytestArgs: [],
      binds: [{ source: modules, dest: "node_modules" }],
    },
  };
}

/** A sandbox whose runs wait for `slots` like `Sandbox.run` and then take no time at all. */
class InstantSandbox extends Sandbox {
  readonly requests: RunRequest[] = [];
  readonly #slots: RunSlots;

  constructor(isolation: Sandbox["isolation"], slots: RunSlots) {
    super({ isolation, runSlots: slots });
    this.#slots = slots;
  }

  override async run(request: RunRequest): Promise<RunResult> {
    const give = await this.#slots.take();
    try {
      // The runner's own check (`node -e ...`) passes; a file's run fails without a report.
      const check = request.argv[1] === "-e";
      if (!check) this.requests.push(request);
      return {
        argv: request.argv,
        exitCode: check ? 0 : 1,
        signal: null,
        timedOut: false,
        waitedMs: 0,
        stdout: "",
        stderr: "",
        truncated: false,
        outputBytes: 0,
        durationMs: 0,
        capsHit: { processes: false, memory: false },
        cgroup: null,
        warm: false,
        ahead: false,
      };
    } finally {
      give();
    }
  }
}

/**
 * `runTests` of the jest repository's two files (`timeoutMs` in all) on the sandbox `make` builds
 * around one slot, which another episode's run holds until at least `holdMs` after the jest run
 * began to wait for it.
 */
async function jestRunBehindHeldSlot<S extends Sandbox>(
  make: (slots: RunSlots) => Promise<S>,
  timeoutMs: number,
  holdMs: number,
): Promise<{ sandbox: S; run: TestRun }> {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-slots-rt-" }));
  const slots = new RunSlots(1, { holdMs: NEVER });
  const hog = await slots.take();
  let released = false;
  try {
    const { dir, environment } = jestRepo(base);
    const sandbox = await make(slots);
    const running = runTests(sandbox, {
      runner: "jest",
      dir,
      files: ["tests/a.test.js", "tests/b.test.js"],
      environment,
      timeoutMs,
    });
    await until(() => slots.waiting === 1);
    await waitPast(performance.now(), holdMs);
    hog();
    released = true;
    return { sandbox, run: await running };
  } finally {
    if (!released) hog();
    await Deno.remove(base, { recursive: true });
  }
}

Deno.test({
  name: "a jest run's files are not skipped because other runs held the slots before they started",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const timeoutMs = 300;
  // The slot is held past the whole budget, then given up; each file's run then takes no time.
  const { sandbox, run } = await jestRunBehindHeldSlot(
    async (slots) => new InstantSandbox(await probeIsolation(), slots),
    timeoutMs,
    timeoutMs,
  );
  assert.equal(
    sandbox.requests.length,
    2,
    `files run: ${sandbox.requests.length} of 2 (timed out: ${run.result.timedOut})`,
  );
  assert.equal(run.result.timedOut, false);
  // Each file's run had the budget that the runs before it left, all of it.
  assert.deepEqual(sandbox.requests.map((r) => r.timeoutMs), [timeoutMs, timeoutMs]);
});

Deno.test({
  name: "a jest run's later files get the budget left by the earlier runs' own time, not the wait",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const seen: { request: RunRequest; result: RunResult }[] = [];
  // The real Sandbox.run (its slots, its process), watched.
  class Watched extends Sandbox {
    override async run(request: RunRequest): Promise<RunResult> {
      const result = await super.run(request);
      // A file's run (not the check that node is there, made after a run without a report).
      if (request.argv.includes("--experimental-permission")) seen.push({ request, result });
      return result;
    }
  }
  const timeoutMs = 120_000;
  await jestRunBehindHeldSlot(
    async (slots) => new Watched({ isolation: await probeIsolation(), runSlots: slots }),
    timeoutMs,
    200,
  );
  assert.equal(seen.length, 2, `files run: ${seen.length} of 2`);
  assert.equal(seen[0].request.timeoutMs, timeoutMs);
  // The second file's budget: what the first run's process used, never the 200 ms it waited.
  const first = seen[0].result;
  assert.equal(
    seen[1].request.timeoutMs,
    Math.round(timeoutMs - first.durationMs + first.waitedMs),
  );
});

Deno.test({
  name: "a jest run's later files get back the time the earlier runs waited for a CPU",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  // Each file's run took a second, 900 ms of it waiting for a CPU (a machine busier than its cores).
  class Starved extends InstantSandbox {
    override async run(request: RunRequest): Promise<RunResult> {
      return { ...await super.run(request), durationMs: 1000, waitedMs: 900 };
    }
  }
  const timeoutMs = 1500;
  const { sandbox } = await jestRunBehindHeldSlot(
    async (slots) => new Starved(await probeIsolation(), slots),
    timeoutMs,
    0,
  );
  assert.deepEqual(sandbox.requests.map((r) => r.timeoutMs), [timeoutMs, timeoutMs - 100]);
});

Deno.test("a run that cannot start gives its slot back, so the runs after it do not wait forever", async () => {
  const isolation = await probeIsolation();
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-slots-rt-" }));
  try {
    // One slot that is never given up by its hold time: only the run itself can give it back.
    const slots = new RunSlots(1, { holdMs: NEVER });
    const gone = join(base, "gone");
    mkdirSync(gone);
    const sandbox = new Sandbox({ isolation, runSlots: slots });
    // Queued behind another run while their working folder is there; it is gone when they start,
    // so their spawn fails after each has taken the slot.
    const hog = await slots.take();
    const failing = [1, 2, 3].map(() =>
      sandbox.run({ argv: ["python3", "-c", "pass"], cwd: gone, timeoutMs: 30_000 })
    );
    await until(() => slots.waiting === 3);
    await Deno.remove(gone);
    hog();
    for (const f of await Promise.allSettled(failing)) {
      assert.equal(f.status, "rejected");
      assert.ok((f as PromiseRejectedResult).reason instanceof SandboxError, String(f));
    }
    assert.equal(slots.waiting, 0);
    // Leasing a uid fails (its lock folder cannot be made): the slot comes back as well.
    if (isolation.users) {
      writeFileSync(join(base, "file"), "");
      const leasing = new Sandbox({
        isolation,
        runSlots: slots,
        userLockDir: join(base, "file", "uids"),
      });
      mkdirSync(join(base, "ws"));
      const results = await Promise.allSettled(
        [1, 2].map(() =>
          leasing.run({ argv: ["python3", "-c", "pass"], cwd: join(base, "ws"), timeoutMs: 30_000 })
        ),
      );
      for (const r of results) assert.equal(r.status, "rejected");
    }
    // The slot is free: a take does not wait.
    (await slots.take())();
    assert.equal(slots.waiting, 0);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
