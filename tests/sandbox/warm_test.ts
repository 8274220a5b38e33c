/**
 * The warm interpreter (`src/sandbox/_zygote.ts`): a run's program forked into its jail must see
 * what the same program started cold in the same jail sees, be held by the same limits, end the
 * same way, and leave nothing behind; where the warm interpreter cannot do its part, the run
 * starts cold. Root with bwrap and the compiled launcher only; elsewhere every run is cold.
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { type RunResult, Sandbox } from "../../src/sandbox/sandbox.ts";
import { runTests, type TestRun } from "../../src/sandbox/test_runner.ts";
import { RESTART_AFTER_MS, zygoteFor } from "../../src/sandbox/_zygote.ts";
import { pidsWith, writeFiles } from "../_fixtures.ts";
import {
  coldBox as cold,
  isolation,
  skipped,
  STAND_IN_REQUEST,
  standIn,
  warmable,
  warmBox as warm,
  withFolders,
} from "./_warm_fixtures.ts";

/**
 * Everything a program can see of its process and jail, as JSON (its first line is a simple
 * statement: the warm interpreter appends the program after a `;`).
 */
const PROBE = String.raw`import io, json, os, resource, signal, socket, sys
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
mounts = sorted(line.split()[4] for line in open("/proc/self/mountinfo"))
limits = {name: resource.getrlimit(getattr(resource, name)) for name in dir(resource) if name.startswith("RLIMIT_")}
streams = {name: [s.encoding, s.errors, s.line_buffering, s.write_through, type(s.buffer).__name__, s.fileno()] for name, s in (("in", sys.stdin), ("out", sys.stdout), ("err", sys.stderr))}
handlers = {s.name: str(signal.getsignal(s)) for s in signal.Signals if s not in (signal.SIGKILL, signal.SIGSTOP)}
print(json.dumps({
  "ids": [os.getuid() == os.geteuid() == os.getgid() > 0, os.getgroups()],
  "caps": {k: status[k].strip() for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp")},
  "cwd": os.getcwd(), "env": dict(os.environ), "umask": os.umask(0o22),
  "root": sorted(os.listdir("/")), "mounts": mounts, "cgroup": open("/proc/self/cgroup").read(),
  "limits": limits, "nice": os.getpriority(os.PRIO_PROCESS, 0), "fds": sorted(os.listdir("/proc/self/fd")),
  "streams": streams, "signals": handlers, "blocked": sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, [])),
  "argv": sys.argv, "orig_argv": sys.orig_argv, "flags": str(sys.flags), "path": sys.path,
  "globals": sorted(globals()), "hostname": socket.gethostname(), "net": open("/proc/net/dev").read().count("\n"),
  "leader": os.getpgrp() == os.getpid(), "stdin": sys.stdin.read(),
  "pid_namespace": sorted(p for p in os.listdir("/proc") if p.isdigit()) != [], "tty": os.path.exists("/dev/tty") and os.isatty(0),
}, sort_keys=True))
sys.stderr.write("done\n")
sys.exit(3)
`;

function python(sandbox: Sandbox, dir: string, code: string, extra = {}): Promise<RunResult> {
  return sandbox.run({
    argv: ["python3", "-I", "-B", "-u", "-c", code],
    cwd: dir,
    timeoutMs: 30_000,
    warm: true,
    ...extra,
  });
}

Deno.test("a warm run's program sees what the same program started cold sees", async () => {
  if (skipped()) return;
  await withFolders(1, async ([dir]) => {
    const stdin = new TextEncoder().encode("the run's stdin\n");
    const a = await python(cold, dir, PROBE, { stdin });
    const b = await python(warm, dir, PROBE, { stdin });
    assert.equal(a.warm, false);
    assert.equal(b.warm, true, b.stderr);
    assert.equal(b.exitCode, a.exitCode, b.stderr);
    assert.equal(b.exitCode, 3);
    assert.equal(b.stderr, a.stderr);
    const seen = [JSON.parse(a.stdout), JSON.parse(b.stdout)];
    // A warm program has a holder beside it in the jail, and the process caps count it.
    const [coldLimit, warmLimit] = seen.map((s) => s.limits.RLIMIT_NPROC[0]);
    assert.equal(warmLimit, coldLimit + 1);
    for (const s of seen) delete s.limits.RLIMIT_NPROC;
    assert.deepEqual(seen[1], seen[0]);
    assert.deepEqual(seen[1].ids, [true, []]);
    assert.deepEqual(seen[1].caps.CapBnd, "0000000000000000");
    assert.equal(seen[1].caps.NoNewPrivs, "1");
    assert.equal(seen[1].caps.Seccomp, "2");
  });
});

Deno.test("a warm run ends with its program's exit status or signal, as a cold run does", async () => {
  if (skipped()) return;
  await withFolders(1, async ([dir]) => {
    for (
      const code of [
        "import os; os._exit(7)",
        "import os, signal; os.kill(os.getpid(), signal.SIGTERM)",
        "import os, signal; os.kill(os.getpid(), signal.SIGKILL)",
        "raise ValueError('boom')",
      ]
    ) {
      const a = await python(cold, dir, code);
      const b = await python(warm, dir, code);
      assert.equal(b.warm, true, b.stderr);
      assert.deepEqual([b.exitCode, b.signal], [a.exitCode, a.signal], code);
      assert.equal(b.stderr, a.stderr, code);
    }
  });
});

Deno.test("a warm run reads a stdin larger than a pipe holds", async () => {
  if (skipped()) return;
  await withFolders(1, async ([dir]) => {
    const stdin = new TextEncoder().encode("x".repeat(1 << 20));
    const b = await python(warm, dir, "import sys; print(len(sys.stdin.buffer.read()))", { stdin });
    assert.equal(b.warm, true, b.stderr);
    assert.equal(b.stdout.trim(), String(1 << 20));
  });
});

Deno.test("a timed-out warm run leaves no process behind, whatever it started", async () => {
  if (skipped()) return;
  await withFolders(1, async ([dir]) => {
    const token = `warm-timeout-${crypto.randomUUID()}`;
    // Children in a session of their own, a grandchild reparented, and the program asleep.
    // Reversed in the program: the warm interpreter's own command line holds the program.
    const code = `import os, subprocess, sys, time; token = ${
      JSON.stringify([...token].reverse().join(""))
    }[::-1]
for _ in range(2):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.execvp("python3", ["python3", "-c", "import time; time.sleep(600)", token])
        os.execvp("python3", ["python3", "-c", "import time; time.sleep(601)", token])
print("started", flush=True)
os.execvp("python3", ["python3", "-c", "import time; time.sleep(602)", token])
`;
    const b = await python(warm, dir, code, { timeoutMs: 1_500 });
    assert.equal(b.warm, true, b.stderr);
    assert.equal(b.timedOut, true);
    assert.match(b.stdout, /started/);
    assert.deepEqual(await pidsWith(token), []);
  });
});

Deno.test("a run the warm interpreter cannot start runs cold", async () => {
  if (skipped()) return;
  await withFolders(1, async ([dir]) => {
    // A first line that cannot follow a `;`: the warm interpreter for it fails at once.
    const compound = "if True:\n    print('ran')\n";
    const first = await python(warm, dir, compound);
    assert.deepEqual([first.warm, first.exitCode, first.stdout], [false, 0, "ran\n"]);
    // A warm interpreter killed: the next run of its program starts cold, and so do later ones.
    const token = `warm-killed-${crypto.randomUUID()}`;
    const code = `import sys; print(${JSON.stringify(token)})`;
    const before = await python(warm, dir, code);
    assert.equal(before.warm, true, before.stderr);
    // Its bwrap and itself.
    const zygotes = await pidsWith(token);
    assert.ok(zygotes.length > 0);
    for (const pid of zygotes) Deno.kill(pid, "SIGKILL");
    for (let i = 0; i < 2; i++) {
      const after = await python(warm, dir, code);
      assert.deepEqual([after.exitCode, after.stdout.trim()], [0, token]);
      assert.equal(after.warm, false);
    }
  });
});

const CALC_TESTS = [
  "import unittest",
  "from calc import add",
  "class T(unittest.TestCase):",
  "    def test_pass(self):",
  "        self.assertEqual(add(1, 2), 3)",
  "    def test_fail(self):",
  "        self.assertEqual(add(1, 2), 4)",
  "    def test_error(self):",
  "        raise KeyError('k')",
  "    @unittest.skip('no')",
  "    def test_skip(self):",
  "        pass",
  "",
].join("\n");

for (const runner of ["unittest", "pytest"] as const) {
  Deno.test(`${runner} outcomes and failure output are the same warm and cold`, async () => {
    if (skipped()) return;
    const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-warm-" }));
    try {
      const dir = join(base, "repo");
      writeFiles(dir, {
        "calc.py": "def add(a, b):\n    return a + b\n",
        "tests/__init__.py": "",
        "tests/test_calc.py": CALC_TESTS,
      });
      const runs: TestRun[] = [];
      for (const sandbox of [cold, warm]) {
        runs.push(
          await runTests(sandbox, {
            runner,
            dir,
            files: ["tests/test_calc.py"],
            timeoutMs: 60_000,
          }),
        );
      }
      const [a, b] = runs;
      if (runner === "pytest" && a.tests.size === 0) {
        return console.warn(`skipped: pytest is missing here (${a.result.stderr.slice(-200)})`);
      }
      assert.equal(b.result.warm, true, b.result.stderr);
      assert.equal(a.result.warm, false);
      assert.deepEqual([...b.tests].sort(), [...a.tests].sort());
      assert.equal(b.tests.size, 4);
      assert.deepEqual([...b.failures].sort(), [...a.failures].sort());
      assert.deepEqual(b.problems, a.problems);
      assert.deepEqual(b.problems, []);
    } finally {
      await Deno.remove(base, { recursive: true });
    }
  });
}

Deno.test("without root, bwrap or the compiled launcher every run starts cold", async () => {
  if (warmable) {
    // Root here: the same sandbox without its launcher stands for the sh fallback.
    const fallback = new Sandbox({
      isolation: { ...isolation, launcher: null, launcherReason: "test" },
    });
    await withFolders(1, async ([dir]) => {
      const b = await python(fallback, dir, "print('ran')");
      assert.deepEqual([b.warm, b.stdout], [false, "ran\n"]);
    });
    return;
  }
  await withFolders(1, async ([dir]) => {
    const b = await python(warm, dir, "print('ran')");
    assert.deepEqual([b.warm, b.stdout], [false, "ran\n"]);
  });
});

Deno.test("zygoteFor() tries a new warm interpreter a while after one ended, never after one failed a run", async () => {
  // Stand-ins (any root, no jail needed): one that ends at once, one that answers a run's set-up
  // failed.
  const ends = standIn("os._exit(0)");
  const refuses = standIn(`took()
os.write(1, b"fail " + number + b" a step failed\\n")`);
  for (const argv of [ends, refuses]) {
    const zygote = zygoteFor(argv)!;
    assert.equal(typeof await zygote.start(1, STAND_IN_REQUEST), "object");
    // Its end is seen once its output closed and its status came.
    while (zygote.broken === null || (argv === ends && zygote.endedAt === null)) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const later = (zygote.endedAt ?? performance.now()) + RESTART_AFTER_MS;
    assert.equal(zygoteFor(argv, later - 1), zygote);
    if (argv === ends) assert.notEqual(zygoteFor(argv, later), zygote);
    else assert.equal(zygoteFor(argv, later + 3_600_000), zygote);
  }
});
