/**
 * Red-team round 10c: what changed in the warm interpreter (`src/sandbox/_zygote.ts`) after rounds
 * 10a and 10b (`warm_redteam_test.ts`, `warm_redteam2_test.ts`): the framed request protocol with
 * its `took` answer, the restart of a warm interpreter that ended, the program joining the run's
 * cgroups before the jail's cgroup namespace, and `gc.freeze()` with pytest preloaded. Each test
 * asserts the secure or faithful behaviour; the ones that held stay as regression tests.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { RunResult, Sandbox } from "../../src/sandbox/sandbox.ts";
import { RESTART_AFTER_MS, Zygote, zygoteFor } from "../../src/sandbox/_zygote.ts";
import { HAS_PYTEST } from "../_pytest.ts";
import {
  coldBox,
  middleUntilGone,
  skipped,
  STAND_IN_REQUEST,
  standIn,
  startOnce,
  warmBox,
  withFolders,
  withMarker,
} from "./_warm_fixtures.ts";

function python(
  dir: string,
  code: string,
  box: Sandbox,
  extra: { warmModules?: string[]; timeoutMs?: number } = {},
): Promise<RunResult> {
  return box.run({
    argv: ["python3", "-I", "-B", "-u", "-c", code],
    cwd: dir,
    timeoutMs: extra.timeoutMs ?? 30_000,
    warm: true,
    ...(extra.warmModules ? { warmModules: extra.warmModules } : {}),
  });
}

// ---------------------------------------------------------------------------------------------
// 1. The request protocol.

Deno.test({
  // The race: the warm interpreter says `took 1` and ends at once while a second, large request is
  // still being written. The write fails (EPIPE). When that ended the runs still waiting, one whose
  // `took 1` was not read yet was refused ({failed}), killed and started again cold although its
  // program may have run (CI failed on it). Now only the end of the warm interpreter's stderr, after
  // every `took` it said, ends the runs it never took.
  name: "warm 3: a taken request is never refused by a write that fails before `took` was read",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    for (let round = 0; round < 30; round++) {
      const zygote = new Zygote(standIn("took()\nos._exit(0)"));
      const big = { ...STAND_IN_REQUEST, env: { BIG: "x".repeat(1 << 20) } };
      const first = zygote.start(1, STAND_IN_REQUEST);
      const second = zygote.start(1, big);
      assert.equal(typeof (await second), "object", "the unwritten request starts cold");
      assert.equal(await first, "lost", `round ${round}: a taken request was refused`);
      zygote.close();
    }
  },
});

Deno.test({
  // `took` (stderr) and the middle's answer (stdout) come on two pipes, read apart: an answer read
  // before its `took` still counts, and the interpreter's end after both changes nothing.
  name: "warm 3: a middle's answer read before its `took` starts the run",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const zygote = new Zygote(standIn(`os.write(1, b"ok " + number + b"\\n")
time.sleep(0.2)
took()
os._exit(0)`));
    assert.equal(await zygote.start(1, STAND_IN_REQUEST), "started");
    while (zygote.endedAt === null) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.ok(zygote.broken?.includes("ended (0)"), zygote.broken ?? "");
    assert.equal(zygote.idle, true);
    zygote.close();
  },
});

Deno.test({
  name:
    "warm 3: a warm interpreter that ends after reading a request but before `took` starts it cold",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const zygote = new Zygote(standIn("os._exit(3)"));
    const start = await zygote.start(1, STAND_IN_REQUEST);
    assert.equal(typeof start, "object", "not taken: started cold");
    assert.ok(zygote.broken?.includes("ended (3)"), zygote.broken ?? "");
    // Every later request is refused at once (cold), never sent to a dead interpreter.
    assert.equal(typeof (await zygote.start(1, STAND_IN_REQUEST)), "object");
    zygote.close();
  },
});

Deno.test({
  // Answers are matched by id: an answer for an id nobody waits on (a stale or forged line) and
  // a `took` for another id resolve nothing; the run waits for its own answer.
  name: "warm 3: answers for other ids never resolve a run",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const start = await startOnce(`os.write(2, b"took 7\\n")
os.write(1, b"ok 7\\ngone 0\\nok x\\nok\\n\\n")
time.sleep(0.3)
took()
os.write(1, b"ok " + number + b"\\n")
time.sleep(0.2)`);
    assert.equal(start, "started");
  },
});

Deno.test({
  // A warm interpreter whose main process ended while a middle of it may still answer (it holds
  // the answers' pipe) is not replaced: its taken run waits, and no second interpreter serves
  // beside it. Once the middle is gone, the run is lost (stopped, never run again) and the interpreter counts as
  // ended, so a new one is tried after RESTART_AFTER_MS.
  name: "warm 3: a warm interpreter is replaced only once no middle of it can answer",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await withMarker(async (marker) => {
      const argv = standIn(`took()
${middleUntilGone(marker)}
os._exit(0)`);
      const zygote = zygoteFor(argv)!;
      const run = zygote.start(1, STAND_IN_REQUEST);
      // The main process ends at once; wait until its end is certain from outside.
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(zygote.idle, false, "the taken run still waits");
      assert.equal(zygoteFor(argv, performance.now() + 10 * RESTART_AFTER_MS), zygote);
      await Deno.remove(marker);
      assert.equal(await run, "lost");
      while (zygote.endedAt === null) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.notEqual(zygote.endedAt, null);
      const later = zygoteFor(argv, zygote.endedAt! + RESTART_AFTER_MS)!;
      assert.notEqual(later, zygote);
      later.close();
    });
  },
});

// ---------------------------------------------------------------------------------------------
// 3. Cgroups, the cgroup namespace and descriptors.

/**
 * What the host sees of the process named `comm` (read by a host `python3`: the test's permissions
 * do not reach all of /proc): its cgroups, whether its cgroup namespace is its jail's first
 * process's, its descriptors; null while there is no such process.
 */
const HOST_LOOK = `import json, os, re, sys
def pids():
    return [p for p in os.listdir("/proc") if p.isdigit()]
def read(path):
    try:
        with open(path) as f: return f.read()
    except OSError: return None
found = [p for p in pids() if read(f"/proc/{p}/comm") == sys.argv[1] + "\\n"]
if len(found) != 1:
    print("null"); sys.exit()
pid = found[0]
ns = os.readlink(f"/proc/{pid}/ns/pid")
init = None
for p in pids():
    try:
        if os.readlink(f"/proc/{p}/ns/pid") == ns and re.search(r"^NSpid:.*\\s1$", read(f"/proc/{p}/status"), re.M):
            init = p
    except OSError: pass
print(json.dumps({
    "cgroups": read(f"/proc/{pid}/cgroup").strip().split("\\n"),
    "cgroupNsSameAsInit": init is not None and os.readlink(f"/proc/{pid}/ns/cgroup") == os.readlink(f"/proc/{init}/ns/cgroup"),
    "fds": sorted(f"{fd} " + re.sub(r"\\[\\d+\\]", "[]", os.readlink(f"/proc/{pid}/fd/{fd}")) for fd in os.listdir(f"/proc/{pid}/fd")),
}))`;

async function hostLook(comm: string): Promise<HostView | null> {
  const { stdout } = await new Deno.Command("python3", {
    args: ["-c", HOST_LOOK, comm],
    stdout: "piped",
  })
    .output();
  return JSON.parse(new TextDecoder().decode(stdout));
}

interface HostView {
  cgroups: string[];
  cgroupNsSameAsInit: boolean;
  fds: string[];
}

/** A run whose program names itself, waits for its folder's `go` file, and is looked at meanwhile. */
async function hostView(dir: string, box: Sandbox): Promise<{ result: RunResult; view: HostView }> {
  const comm = `rt10c${Math.floor(Math.random() * 1e6)}`;
  const code = `import ctypes, os, time
ctypes.CDLL(None).prctl(15, ${JSON.stringify(comm)}.encode(), 0, 0, 0)
while not os.path.exists("go"):
    time.sleep(0.02)
print(open("/proc/self/cgroup").read(), end="")
print(sorted(os.listdir("/proc/self/fd")))`;
  const running = python(dir, code, box);
  let view: HostView | null = null;
  for (let i = 0; i < 500 && view === null; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    view = await hostLook(comm);
  }
  assert.ok(view, "the program, seen from the host");
  await Deno.writeTextFile(join(dir, "go"), "");
  const result = await running;
  await Deno.remove(join(dir, "go")).catch(() => {});
  return { result, view };
}

Deno.test("warm 3: the program is in the run's pids and memory cgroups and the jail's cgroup namespace, with no descriptor left, as cold", async () => {
  if (skipped()) return;
  await withFolders(1, async ([dir]) => {
    const seen: Record<string, { result: RunResult; view: HostView }> = {};
    for (const [name, box] of [["warm", warmBox], ["cold", coldBox]] as const) {
      const { result, view } = await hostView(dir, box);
      assert.equal(result.warm, name === "warm");
      assert.equal(result.exitCode, 0, result.stderr);
      assert.ok(result.cgroup, "a cgroup per run");
      for (const controller of ["pids", "memory"]) {
        const line = view.cgroups.find((l) => l.split(":")[1].split(",").includes(controller));
        assert.ok(line?.endsWith(`/${result.cgroup!.split("/").at(-1)}`), `${name}: ${line}`);
      }
      assert.ok(view.cgroupNsSameAsInit, `${name}: the jail's cgroup namespace`);
      seen[name] = { result, view };
    }
    assert.deepEqual(seen.warm.view.fds, seen.cold.view.fds);
    assert.equal(seen.warm.result.stdout, seen.cold.result.stdout);
  });
});

Deno.test("warm 3: a program's processes count against the run's pids cap as cold (the holder aside)", async () => {
  if (skipped()) return;
  const code = `import os, time
count = 0
try:
    while count < 500:
        if os.fork() == 0:
            time.sleep(5)
            os._exit(0)
        count += 1
except OSError as error:
    print("stopped", count, error.errno)`;
  await withFolders(1, async ([dir]) => {
    const warm = await python(dir, code, warmBox);
    const cold = await python(dir, code, coldBox);
    assert.equal(warm.warm, true);
    assert.equal(cold.warm, false);
    assert.match(cold.stdout, /^stopped \d+ 11\n/);
    assert.equal(warm.stdout, cold.stdout);
  });
});

// ---------------------------------------------------------------------------------------------
// 4. gc.freeze() and the preloaded pytest.

Deno.test({
  // Open (documented in docs/sandbox.md, not fixed): the warm interpreter's objects are frozen
  // out of the collector (gc.freeze(), kept for its cost: docs/benchmarks.md, tenth round), so a
  // warm program's gc.get_objects() and gc.get_referrers() do not see them (a module's dict
  // referring to a class: 0 warm, 2 cold) and gc.get_freeze_count() is not 0. Honest tests that
  // look for leaks or referrers through gc see a different heap. The reporter itself uses none of
  // these (its audit hook refuses them to code under test).
  name: "warm 3: gc sees the same objects warm as cold (open: frozen objects)",
  ignore: true,
  async fn() {
    if (skipped()) return;
    const code = `import gc, unittest
print(gc.get_freeze_count(), sum(isinstance(r, dict) for r in gc.get_referrers(unittest.TestCase)))`;
    await withFolders(1, async ([dir]) => {
      const warm = await python(dir, code, warmBox);
      const cold = await python(dir, code, coldBox);
      assert.equal(warm.warm, true);
      assert.equal(warm.stdout, cold.stdout);
    });
  },
});

Deno.test({
  // What pytest's import leaves behind, which the warm interpreter made once: exit handlers (they
  // would run at each program's end), warning filters, import hooks and caches, threads, signal
  // handlers, the random state (random reseeds itself after a fork; a Random of a module's own
  // would not). Compared with a cold program that imports pytest first, as the reporter does.
  // Fixed: the import system's path cache (`sys.path_importer_cache`) kept the entries of the
  // prelude's own imports (`/usr/lib/python3.11/ctypes`); `_finish` now drops them too.
  name: "warm 3: the state pytest's import leaves is a cold import's, and random differs per run",
  ignore: !HAS_PYTEST,
  async fn() {
    if (skipped()) return;
    const code = `import pytest, sys, atexit, warnings, threading, signal, random, os
print(atexit._ncallbacks(), [str(f) for f in warnings.filters], [type(f).__name__ for f in sys.meta_path])
print([repr(h) for h in sys.path_hooks], sorted(sys.path_importer_cache), threading.active_count())
print(sorted((s.name, str(signal.getsignal(s))) for s in signal.Signals if s not in (signal.SIGKILL, signal.SIGSTOP)))
print(sorted(sys.modules))
print(os.getcwd(), sys.path)
sys.stderr.write(str(random.random()))`;
    await withFolders(1, async ([dir]) => {
      const warm = await python(dir, code, warmBox, { warmModules: ["pytest"] });
      const again = await python(dir, code, warmBox, { warmModules: ["pytest"] });
      const cold = await python(dir, code, coldBox, { warmModules: ["pytest"] });
      assert.equal(warm.warm, true);
      assert.equal(cold.warm, false);
      assert.equal(warm.exitCode, 0, warm.stderr);
      const lines = (r: RunResult) => r.stdout.split("\n");
      const clean = (line: string) => line.replace(/ at 0x[0-9a-f]+/g, "");
      for (const i of [0, 1, 2, 4]) {
        assert.equal(clean(lines(warm)[i]), clean(lines(cold)[i]), `line ${i}`);
      }
      assert.notEqual(warm.stderr, again.stderr, "the same random numbers in two warm runs");
    });
  },
});
