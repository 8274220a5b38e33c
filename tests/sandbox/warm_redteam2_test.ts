/**
 * Red-team round 10b: a second reading of the warm interpreter (`src/sandbox/_zygote.ts`), with
 * attacks the first round (`warm_redteam_test.ts`) did not try. Each asserts the secure or faithful
 * behaviour, so it fails while its hole is open; the ones that held stay as regression tests. A
 * cold run (`warm: false`) is the reference wherever behaviour is compared.
 */
import assert from "node:assert/strict";
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "../../src/agent/environment.ts";
import type { GradeResult } from "../../src/reward/grade.ts";
import { type RunResult, Sandbox } from "../../src/sandbox/sandbox.ts";
import { runTests, type TestRun } from "../../src/sandbox/test_runner.ts";
import { Zygote } from "../../src/sandbox/_zygote.ts";
import { pidsWith, writeFiles } from "../_fixtures.ts";
import { HAS_PYTEST } from "../_pytest.ts";
import { PYTEST_TASK, TASKS_DIR, UNITTEST_TASK } from "../reward/_grading.ts";
import {
  coldBox,
  isolation,
  skipped,
  STAND_IN_REQUEST,
  standIn,
  warmBox,
  withFolders,
} from "./_warm_fixtures.ts";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Options {
  warm?: boolean;
  sandbox?: Sandbox;
  timeoutMs?: number;
  env?: Record<string, string>;
  stdin?: string;
}

function python(dir: string, code: string, options: Options = {}): Promise<RunResult> {
  const box = options.sandbox ?? (options.warm === false ? coldBox : warmBox);
  return box.run({
    argv: ["python3", "-I", "-B", "-u", "-c", code],
    cwd: dir,
    timeoutMs: options.timeoutMs ?? 30_000,
    warm: true,
    ...(options.env ? { env: options.env } : {}),
    ...(options.stdin !== undefined ? { stdin: encoder.encode(options.stdin) } : {}),
  });
}

/** What the host's `ps` says: pid, parent, uid and name of every process. */
async function processes(): Promise<{ pid: number; ppid: number; uid: number; comm: string }[]> {
  const { stdout } = await new Deno.Command("ps", {
    args: ["-e", "-o", "pid=,ppid=,uid=,comm="],
    stdout: "piped",
  }).output();
  return decoder.decode(stdout).trim().split("\n").map((line) => {
    const [pid, ppid, uid, comm] = line.trim().split(/\s+/);
    return { pid: Number(pid), ppid: Number(ppid), uid: Number(uid), comm };
  });
}

/** Each host process's pid in its innermost pid namespace (`NSpid`, through `sh`: Deno reads
 * other processes' /proc files only with --allow-all). */
async function innerPids(): Promise<Map<number, number>> {
  const { stdout } = await new Deno.Command("sh", {
    args: ["-c", "grep -H '^NSpid:' /proc/[0-9]*/status 2>/dev/null"],
    stdout: "piped",
  }).output();
  const inner = new Map<number, number>();
  for (const line of decoder.decode(stdout).split("\n")) {
    const match = line.match(/^\/proc\/(\d+)\/status:NSpid:\s+([\d\s]+)$/);
    if (match) inner.set(Number(match[1]), Number(match[2].trim().split(/\s+/).at(-1)));
  }
  return inner;
}

/**
 * A host process's working folder, or null (through `readlink`: Deno reads other processes' /proc
 * files only with --allow-all).
 */
async function workingFolder(pid: number): Promise<string | null> {
  const { stdout, success } = await new Deno.Command("readlink", {
    args: [`/proc/${pid}/cwd`],
    stdout: "piped",
    stderr: "null",
  }).output();
  return success ? decoder.decode(stdout).trim() : null;
}

async function waitForFile(path: string, tries = 300): Promise<string> {
  for (let i = 0; i < tries; i++) {
    try {
      return await Deno.readTextFile(path);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`${path} never appeared`);
}

Deno.test("warm 2: a program dies with its middle (the uid change had cleared its parent-death signal)", async () => {
  // The hole: PR_SET_PDEATHSIG was set before setresuid, and a change of the effective uid clears
  // it, so a program whose middle ended (killed, OOM) ran on to its end unwatched, and the run
  // then hung to its timeout (no status ever reached the holder).
  if (skipped()) return;
  // Reversed in the program: the warm interpreter's own command line holds the program.
  const token = `rt10b-pdeath-${crypto.randomUUID()}`;
  const reversed = JSON.stringify([...token].reverse().join(""));
  await withFolders(1, async ([dir]) => {
    const code = `import ctypes, os, subprocess, sys, time
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", ${reversed}[::-1]])
signal_number = ctypes.c_int(-1)
ctypes.CDLL(None).prctl(2, ctypes.byref(signal_number), 0, 0, 0)
# Whole or not at all: the test reads it as soon as it is there.
with open("ready.part", "w") as f: f.write(f"{os.getuid()} {signal_number.value} {os.getpid()}")
os.replace("ready.part", "ready")
time.sleep(4)
open("finished", "w").write("done")
print("finished")`;
    const running = python(dir, code, { timeoutMs: 8_000 });
    const [uid, pdeath, innerPid] = (await waitForFile(`${dir}/ready`)).split(" ").map(Number);
    const all = await processes();
    // The program, not its own child of the same uid and name, nor another test file's process of
    // that uid: the one whose parent is a root python3 (its middle), whose pid in its own
    // namespace is the one it wrote, and whose working folder is this test's.
    const inner = await innerPids();
    const candidates = all.filter((p) =>
      p.uid === uid && p.comm === "python3" && inner.get(p.pid) === innerPid &&
      all.some((parent) => parent.pid === p.ppid && parent.uid === 0 && parent.comm === "python3")
    );
    const program = (await Promise.all(
      candidates.map(async (p) => (await workingFolder(p.pid)) === dir ? p : null),
    )).find((p) => p !== null);
    assert.ok(program, "the program on the host");
    const middle = all.find((p) => p.pid === program.ppid)!;
    Deno.kill(middle.pid, "SIGKILL");
    const result = await running;
    assert.equal(result.warm, true);
    assert.doesNotMatch(result.stdout, /finished/);
    assert.equal(await Deno.readTextFile(`${dir}/finished`).catch(() => null), null);
    assert.equal(pdeath, 9, "the program's parent-death signal");
    // Its children died with the run's jail.
    assert.deepEqual(await pidsWith(token), []);
  });
});

Deno.test("warm 2: an environment the warm program cannot take as a cold one gets it starts cold", async () => {
  // The hole: `os.environ` refused a name with "=" or an empty one (the warm run ended 125 before
  // its program, where the cold run ran), wrote a lone surrogate as a raw 0xff byte (Deno writes
  // U+FFFD), and a run's own PATH changed `sys.executable` cold but not warm.
  if (skipped()) return;
  const code = `import json, os, sys
print(json.dumps([sorted(os.environ.items()), sys.executable, open("/proc/self/environ", "rb").read().hex()]))`;
  const cases: [Record<string, string>, boolean][] = [
    [{ "A=B": "c" }, false],
    [{ "": "c" }, false],
    [{ A: "\u00e9\udcff" }, false],
    [{ PATH: "/bin:/usr/bin" }, false],
    // What a warm program takes as it is: still warm, and the same environment as cold.
    [{ A: "line\nbreak", B: "\u00e9\u20ac", C: "" }, true],
  ];
  await withFolders(2, async ([warmDir, coldDir]) => {
    for (const [env, warm] of cases) {
      const a = await python(warmDir, code, { env });
      const b = await python(coldDir, code, { env, warm: false });
      assert.equal(a.warm, warm, JSON.stringify(env));
      assert.equal(a.exitCode, 0, `${JSON.stringify(env)}: ${a.stderr}`);
      const [aEnv, aExe] = JSON.parse(a.stdout);
      const [bEnv, bExe] = JSON.parse(b.stdout);
      const pwd = (list: [string, string][]) => list.filter(([k]) => k !== "PWD");
      assert.deepEqual([pwd(aEnv), aExe], [pwd(bEnv), bExe], JSON.stringify(env));
    }
  });
});

Deno.test("warm 2: stops, a stopped child, ptrace and streams held by leftover children end as cold", async () => {
  if (skipped()) return;
  const programs = [
    // A program stopping itself (its waiting middle sees no stop) and resumed by its child.
    `import os, signal, subprocess, sys
subprocess.Popen([sys.executable, "-c", "import os, signal, time; time.sleep(0.3); os.kill(os.getppid(), signal.SIGCONT)"])
os.kill(os.getpid(), signal.SIGSTOP)
print("resumed")`,
    `import os, signal, time
pid = os.fork()
if pid == 0:
    os.kill(os.getpid(), signal.SIGSTOP)
    os._exit(5)
_, status = os.waitpid(pid, os.WUNTRACED)
print(os.WIFSTOPPED(status))
os.kill(pid, signal.SIGCONT)
print(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))`,
    `import ctypes
libc = ctypes.CDLL(None, use_errno=True)
print(libc.ptrace(0, 0, 0, 0), ctypes.get_errno())`,
    // Exits while a child and a daemon still hold its stdout.
    `import os, subprocess, sys
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1); print('late child')"])
if os.fork() == 0:
    os.setsid()
    import time
    time.sleep(1)
    print("late daemon", flush=True)
    os._exit(0)
print("early")
sys.exit(4)`,
  ];
  await withFolders(2, async ([warmDir, coldDir]) => {
    for (const program of programs) {
      const a = await python(warmDir, program, { timeoutMs: 15_000 });
      const b = await python(coldDir, program, { warm: false, timeoutMs: 15_000 });
      assert.equal(a.warm, true);
      assert.deepEqual(
        [a.exitCode, a.signal, a.timedOut, a.stdout, a.stderr],
        [b.exitCode, b.signal, b.timedOut, b.stdout, b.stderr],
        program,
      );
      assert.equal(a.timedOut, false, program);
    }
  });
});

/**
 * {@linkcode zygoteState} once the last run's middle (a root `python3` forked from the warm
 * interpreter, which may outlive its run by a moment) is gone: one interpreter with no child, or
 * what it is after 10 s.
 */
async function settledZygoteState(token: string) {
  let state = await zygoteState(token);
  for (let i = 0; i < 200 && !(state.length === 1 && state[0].kids === 0); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    state = await zygoteState(token);
  }
  return state;
}

/** The warm interpreter of `token` (root `python3`): its memory, descriptors and children. */
async function zygoteState(token: string): Promise<{ rss: number; fds: number; kids: number }[]> {
  const script = `for p in $(pgrep -f '${token}'); do
  [ "$(cat /proc/$p/comm 2>/dev/null)" = python3 ] || continue
  [ "$(stat -c %u /proc/$p)" = 0 ] || continue
  echo "$(awk '/^VmRSS/ {print $2}' /proc/$p/status) $(ls /proc/$p/fd | wc -l) $(cat /proc/$p/task/$p/children | wc -w)"
done`;
  const { stdout } = await new Deno.Command("sh", { args: ["-c", script], stdout: "piped" })
    .output();
  return decoder.decode(stdout).trim().split("\n").filter(Boolean).map((line) => {
    const [rss, fds, kids] = line.split(" ").map(Number);
    return { rss, fds, kids };
  });
}

Deno.test("warm 2: hundreds of runs leave the warm interpreter's memory, descriptors and children as they were", async () => {
  if (skipped()) return;
  const token = `rt10b-growth-${crypto.randomUUID()}`;
  // A large environment each time too: the request buffer is scrubbed, never kept growing.
  const env = { BIG: "y".repeat(100_000) };
  const code = `import sys; sys.stdout.write(sys.stdin.read()) #${token}`;
  await withFolders(1, async ([dir]) => {
    const batch = async (count: number) => {
      for (let i = 0; i < count; i++) {
        const result = await python(dir, code, { stdin: `run ${i}`, env });
        assert.equal(result.warm, true);
        assert.equal(result.stdout, `run ${i}`);
      }
    };
    await batch(30);
    const before = await settledZygoteState(token);
    assert.equal(before.length, 1, "one warm interpreter for the program");
    await batch(270);
    const after = await settledZygoteState(token);
    assert.equal(after.length, 1);
    assert.equal(after[0].fds, before[0].fds, "descriptors");
    assert.equal(after[0].kids, 0, "children left behind");
    assert.ok(
      after[0].rss - before[0].rss < 1024,
      `RSS grew: ${before[0].rss} -> ${after[0].rss} KiB`,
    );
  });
});

Deno.test("warm 2: concurrent runs of sandboxes with other limits each get their own", async () => {
  if (skipped()) return;
  const configs = [
    { openFiles: 100, processes: 30, niceness: 5 },
    { openFiles: 200, processes: 40, niceness: 10 },
    { openFiles: 300, processes: 50, niceness: 15 },
  ];
  const code = `import json, os, resource, sys
print(json.dumps([resource.getrlimit(resource.RLIMIT_NOFILE)[0], resource.getrlimit(resource.RLIMIT_NPROC)[0],
                  os.getpriority(os.PRIO_PROCESS, 0), os.getcwd(), sys.stdin.read()]))`;
  const perBox = 6;
  await withFolders(configs.length * perBox * 2, async (dirs) => {
    const runs = configs.flatMap((limits, k) =>
      [true, false].flatMap((warm, w) => {
        const sandbox = new Sandbox({ isolation, limits, warm, runSlots: 64 });
        return Array.from({ length: perBox }, async (_, i) => {
          const dir = dirs[(k * 2 + w) * perBox + i];
          const result = await python(dir, code, { sandbox, stdin: `key ${k} ${w} ${i}` });
          const [nofile, nproc, nice, cwd, key] = JSON.parse(result.stdout);
          assert.equal(cwd, dir);
          assert.equal(key, `key ${k} ${w} ${i}`);
          assert.equal(result.warm, warm);
          return { k, warm, seen: [nofile, nproc - (warm ? 1 : 0), nice] };
        });
      })
    );
    const results = await Promise.all(runs);
    for (const [k, limits] of configs.entries()) {
      const seen = new Set(results.filter((r) => r.k === k).map((r) => JSON.stringify(r.seen)));
      assert.equal(seen.size, 1, `sandbox ${k}: ${[...seen].join(" ")}`);
      const [nofile, , nice] = JSON.parse([...seen][0]);
      assert.deepEqual([nofile, nice], [limits.openFiles, limits.niceness]);
    }
  });
});

const PYTEST_FILE = String
  .raw`import atexit, faulthandler, io, locale, multiprocessing, os, signal, subprocess, sys, threading, time
import pytest
from calc import add

def test_pass(): assert add(1, 2) == 3
def test_fail(): assert add(1, 2) == 4
def test_tmp_path(tmp_path):
    (tmp_path / "f").write_text("x")
    assert (tmp_path / "f").read_text() == "x"
def test_capsys(capsys):
    print("h\xe9llo \u20ac")
    assert capsys.readouterr().out == "h\xe9llo \u20ac\n"
def test_monkeypatch(monkeypatch):
    monkeypatch.setenv("X", "1")
    monkeypatch.chdir("/tmp")
    assert os.environ["X"] == "1" and os.getcwd() == "/tmp"
def test_subprocess():
    assert subprocess.run([sys.executable, "-c", "print(7)"], capture_output=True, text=True).stdout == "7\n"
def test_threads():
    seen = []
    thread = threading.Thread(target=lambda: seen.append(1))
    thread.start(); thread.join()
    assert seen == [1]
def _square(x): return x * x
def test_multiprocessing_fork():
    with multiprocessing.get_context("fork").Pool(2) as pool:
        assert pool.map(_square, [1, 2, 3]) == [1, 4, 9]
def test_multiprocessing_spawn():
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.map(abs, [-1]) == [1]
def test_alarm():
    hit = []
    signal.signal(signal.SIGALRM, lambda *a: hit.append(1))
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    time.sleep(0.5)
    assert hit
def test_faulthandler():
    faulthandler.enable()
    assert faulthandler.is_enabled()
def test_atexit():
    atexit.register(print, "at exit")
def test_fork():
    pid = os.fork()
    if pid == 0:
        os._exit(3)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 3
def test_sys_exit(): sys.exit(2)
def test_input(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("line\n"))
    assert input() == "line"
def test_stdin_read(): assert sys.stdin.read() == ""
def test_locale(): assert locale.getpreferredencoding(False).lower() in ("utf-8", "utf8")
def test_sigint(): assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
def test_undecodable(): print("\udcff")
def test_nonascii_fail(): assert "h\xe9" == "\u20ac"
`;

Deno.test({
  name: "warm 2: pytest outcomes and failure output are the same warm and cold",
  ignore: !HAS_PYTEST,
  async fn() {
    if (skipped()) return;
    const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-rt10b-" }));
    try {
      const dir = join(base, "repo");
      writeFiles(dir, {
        "calc.py": "def add(a, b):\n    return a + b\n",
        "tests/__init__.py": "",
        "tests/test_x.py": PYTEST_FILE,
      });
      const runs: TestRun[] = [];
      for (const sandbox of [coldBox, warmBox]) {
        runs.push(
          await runTests(sandbox, {
            runner: "pytest",
            dir,
            files: ["tests/test_x.py"],
            timeoutMs: 60_000,
          }),
        );
      }
      const [cold, warm] = runs;
      assert.equal(warm.result.warm, true, warm.result.stderr);
      assert.equal(cold.result.warm, false);
      assert.deepEqual([...warm.tests].sort(), [...cold.tests].sort());
      assert.deepEqual([...warm.failures].sort(), [...cold.failures].sort());
      assert.deepEqual(warm.problems, cold.problems);
      assert.deepEqual(warm.problems, []);
      assert.deepEqual(warm.counts, { passed: 16, failed: 4, skipped: 0 });
      assert.equal(warm.result.exitCode, cold.result.exitCode);
    } finally {
      await Deno.remove(base, { recursive: true });
    }
  },
});

function summary(grade: GradeResult): string {
  return JSON.stringify({
    f2p: [
      grade.fail_to_pass.passed,
      grade.fail_to_pass.total,
      Object.values(grade.fail_to_pass.tests).sort(),
    ],
    p2p: [
      grade.pass_to_pass.passed,
      grade.pass_to_pass.total,
      Object.values(grade.pass_to_pass.tests).sort(),
    ],
    problems: grade.run.problems,
    found: grade.run.report_found,
    unguarded: grade.unguarded.length,
    outside: grade.judged_outside.length,
  });
}

Deno.test({
  name:
    "warm 2: the grader (observe mode, canaries) scores a task's solution and an empty patch the same warm and cold",
  ignore: !HAS_PYTEST,
  async fn() {
    if (skipped()) return;
    const root = await Deno.makeTempDir({ prefix: "patchgym-rt10b-grade-" });
    try {
      const envs = {
        warm: await Environment.open({ tasksDir: TASKS_DIR, workRoot: root }),
        cold: await Environment.open({ tasksDir: TASKS_DIR, workRoot: root, coldPython: true }),
      };
      const started: Record<string, boolean[]> = { warm: [], cold: [] };
      for (const [name, env] of Object.entries(envs)) {
        const run = env.sandbox.run.bind(env.sandbox);
        env.sandbox.run = async (request) => {
          const result = await run(request);
          if (request.warm) started[name].push(result.warm);
          return result;
        };
      }
      for (const id of [PYTEST_TASK, UNITTEST_TASK]) {
        for (const which of ["solution", "empty"]) {
          const seen: Record<string, string> = {};
          for (const [name, env] of Object.entries(envs)) {
            const task = env.task(id);
            const patch = which === "solution" ? readFileSync(task.solutionPath!, "utf8") : "";
            seen[name] = summary(await env.grade(task, patch));
          }
          assert.equal(seen.warm, seen.cold, `${id} ${which}`);
        }
      }
      assert.ok(started.warm.length > 0 && started.warm.every((w) => w), "warm grading runs");
      assert.ok(started.cold.every((w) => !w), "cold grading runs");
    } finally {
      await Deno.remove(root, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test("warm 2: a cwd or read-only path through a symlink is refused warm as cold", async () => {
  if (skipped()) return;
  await withFolders(1, async ([dir]) => {
    await Deno.mkdir(`${dir}/real`);
    await Deno.chmod(`${dir}/real`, 0o755);
    await Deno.symlink(`${dir}/real`, `${dir}/link`);
    for (const box of [warmBox, coldBox]) {
      for (
        const request of [{ cwd: `${dir}/link` }, { cwd: `${dir}/real`, readOnly: [`${dir}/link`] }]
      ) {
        await assert.rejects(
          box.run({
            argv: ["python3", "-I", "-B", "-u", "-c", "print('ran')"],
            timeoutMs: 10_000,
            warm: true,
            ...request,
          }),
          /symlink/,
        );
      }
    }
  });
});

Deno.test({
  // Fixed: when the warm interpreter's stdin could not be written (it ended), `Zygote.start` failed
  // every run still waiting, including a run whose middle already forked its program and said
  // `ok` (the line not read yet): `runOnce` then killed that run and started it again cold, so its
  // program ran twice. Now only a run whose request the warm interpreter never took starts cold.
  // A stand-in interpreter shows it.
  name:
    "warm 2: a run whose program started is never refused because a later request could not be written",
  async fn() {
    // Reads one request, says it took it, hands the answer to a child that says `ok` a little
    // later (as a middle whose answer is still on its way), and ends at once.
    const zygote = new Zygote(standIn(`took()
if os.fork() == 0:
    leave()
    time.sleep(0.5)
    os.write(1, b"ok " + number + b"\\n")
    time.sleep(0.5)
    os._exit(0)
os._exit(0)`));
    const first = zygote.start(1, STAND_IN_REQUEST);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await zygote.start(1, STAND_IN_REQUEST);
    assert.equal(typeof second, "object");
    assert.equal(await first, "started");
    zygote.close();
  },
});
