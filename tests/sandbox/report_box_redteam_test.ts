/**
 * Red team 12: attacks on the report folder made beside the workspace in the workspace's own
 * capped file system (`Workspace.reportRoot`), by code under test in a test run and
 * by a final diff in the grader's copy, run as root with bwrap (skipped elsewhere).
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { Environment } from "../../src/agent/environment.ts";
import { diffTree } from "../../src/patch/diff.ts";
import { gradePatch } from "../../src/reward/grade.ts";
import { probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";
import {
  compiledReporter,
  REPORT_FOLDER_BYTES,
  REPORT_FOLDER_ENTRIES,
  runnerProblem,
  runTests,
  type TestRun,
} from "../../src/sandbox/test_runner.ts";
import { executeTool } from "../../src/tools/registry.ts";
import { toolContext } from "../../src/tools/types.ts";
import { measureTree } from "../../src/workspace/limits.ts";
import { removeTree } from "../../src/workspace/remove.ts";
import { snapshotDir } from "../../src/workspace/snapshot.ts";
import { createWorkspace, startWorkspace, type Workspace } from "../../src/workspace/workspace.ts";
import { mountsUnder, writeFiles } from "../_fixtures.ts";

const TASKS = new URL("../../tasks", import.meta.url).pathname;
const isolation = await probeIsolation();
const capped = isolation.level === "bwrap" && isolation.users !== null &&
  isolation.workspaceMounts === true;
const NOT_CAPPED = "the workspace is not a capped file system here (not root with bwrap)";

function skip(reason: string): void {
  console.warn(`skipped: ${reason}`);
}

/**
 * Code under test, in `calc.py`: `attack` (Python, indented by four spaces) runs at import when
 * the workspace holds a file `ATTACK`, so the host turns it off by removing that file. `_ws`, `_top`
 * (the folder above it as the jail shows it) and `_rep` (the run's report folder, found in
 * mountinfo) are set for it; it reports with `_say(dict)`.
 */
function calc(attack: string, add = "a + b"): string {
  return `import errno, json, os

def _attempt(fn):
    try:
        fn()
        return 'ok'
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))

def _say(out):
    print('ATTACK ' + json.dumps(out), flush=True)

if os.path.exists('ATTACK'):
    _ws = os.getcwd()
    _top = os.path.dirname(_ws)
    _reports = [l.split()[4] for l in open('/proc/self/mountinfo')
                if os.path.basename(l.split()[4]).startswith('.report-')]
    _rep = _reports[0] if _reports else None
${attack}

def add(a, b):
    return ${add}
`;
}

const TEST_FILE = `import unittest
from calc import add

class T(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(1, 2), 3)
`;

/** What the attack said, from the run's output. */
function said(run: TestRun): Record<string, unknown> {
  const line = run.result.stdout.split("\n").find((l) => l.startsWith("ATTACK "));
  assert.ok(line, `no ATTACK line:\n${run.result.stdout}\n${run.result.stderr}`);
  return JSON.parse(line.slice(7));
}

/** Folder `dir`'s entry names, sorted. */
function names(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

/** Free inodes and bytes of the file system holding `path` (a host python3: no statfs in Deno). */
async function statfs(path: string): Promise<{ inodes: number; bytes: number }> {
  const out = await new Deno.Command("python3", {
    args: [
      "-c",
      "import os, sys; s = os.statvfs(sys.argv[1]); print(s.f_ffree, s.f_bavail * s.f_frsize)",
      path,
    ],
    stdout: "piped",
  }).output();
  const [inodes, bytes] = new TextDecoder().decode(out.stdout).trim().split(" ").map(Number);
  return { inodes, bytes };
}

interface Capped {
  base: string;
  sandbox: Sandbox;
  workspace: Workspace;
  /** A unittest run of the workspace's test file, as run_tests makes it. */
  run(workspace?: Workspace): Promise<TestRun>;
  /** A capped workspace of the same repository (another episode's). */
  another(): Promise<Workspace>;
}

/**
 * A capped workspace (a tmpfs of room for 4 MiB and 100 entries besides the repository, plus one
 * report folder's room, as `Environment.workspaceMount` sizes one) of a repository whose code
 * under test is `code`; removed afterwards, and no mount may be left.
 */
async function withCapped(code: string, fn: (c: Capped) => Promise<void>): Promise<void> {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-rt12-" }));
  const made: Workspace[] = [];
  try {
    const repo = join(base, "repo");
    writeFiles(repo, { "calc.py": code, "tests/test_calc.py": TEST_FILE });
    const snapshot = snapshotDir(repo);
    const sandbox = new Sandbox({ isolation });
    const another = async () => {
      const workspace = startWorkspace(snapshot, {
        root: base,
        prefix: "ws",
        mount: sandbox.workspaceMount(
          4 * 1024 ** 2 + REPORT_FOLDER_BYTES,
          100 + REPORT_FOLDER_ENTRIES,
        )!,
      });
      made.push(workspace);
      await workspace.ready;
      return workspace;
    };
    const workspace = await another();
    assert.notEqual(workspace.mountRoot, null);
    const run = (ws = workspace) =>
      runTests(sandbox, {
        runner: "unittest",
        dir: ws.dir,
        scratchDir: ws.scratch,
        reportRoot: ws.mountRoot!,
        files: ["tests/test_calc.py"],
        timeoutMs: 30_000,
      });
    await fn({ base, sandbox, workspace, run, another });
  } finally {
    for (const workspace of made) await workspace.remove();
    const left = await mountsUnder(base);
    await removeTree(base);
    assert.deepEqual(left, []);
  }
}

Deno.test("runTests() keeps code under test from linking or moving files between the workspace and its report folder, or writing beside them", async () => {
  // The attack: the workspace (work/) and the run's report folder are two binds of one tmpfs, so a
  // hard link or a rename between them might carry a file across (a file the orchestrator reads
  // as the report, or one that outlives the report folder's removal in the workspace), and the
  // folder above them is the tmpfs's root. Must hold: every link and rename across is refused
  // (EXDEV), nothing can be made beside them or the binds moved, and the jail shows the run no
  // other entry of the tmpfs's root than its own two.
  if (!capped) return skip(NOT_CAPPED);
  const attack = `    with open(os.path.join(_rep, 'r.txt'), 'w') as f:
        f.write('r')
    with open('w.txt', 'w') as f:
        f.write('w')
    _say({
        'reports': _reports,
        'parent': sorted(os.listdir(_top)),
        'link_r2w': _attempt(lambda: os.link(os.path.join(_rep, 'r.txt'), 'lr.txt')),
        'link_w2r': _attempt(lambda: os.link('w.txt', os.path.join(_rep, 'lw.txt'))),
        'rename_r2w': _attempt(lambda: os.rename(os.path.join(_rep, 'r.txt'), 'mr.txt')),
        'rename_w2r': _attempt(lambda: os.rename('w.txt', os.path.join(_rep, 'mw.txt'))),
        'mkdir_top': _attempt(lambda: os.mkdir(os.path.join(_top, 'planted'))),
        'symlink_top': _attempt(lambda: os.symlink('/', os.path.join(_top, 'planted2'))),
        'rename_ws': _attempt(lambda: os.rename(_ws, os.path.join(_top, 'moved'))),
        'rename_rep': _attempt(lambda: os.rename(_rep, os.path.join(_ws, 'rep'))),
        'rmdir_rep': _attempt(lambda: os.rmdir(_rep)),
    })`;
  await withCapped(calc(attack), async ({ workspace, run }) => {
    Deno.writeTextFileSync(join(workspace.dir, "ATTACK"), "");
    const out = said(await run());
    console.log(JSON.stringify(out));
    const reports = out.reports as string[];
    assert.equal(reports.length, 1);
    assert.ok(reports[0].startsWith(`${workspace.mountRoot}/.report-`), reports[0]);
    assert.deepEqual(
      out.parent,
      [reports[0].slice(workspace.mountRoot!.length + 1), "work"].sort(),
    );
    for (const key of ["link_r2w", "link_w2r", "rename_r2w", "rename_w2r"]) {
      assert.equal(out[key], "EXDEV", key);
    }
    for (const key of ["mkdir_top", "symlink_top", "rename_ws", "rename_rep", "rmdir_rep"]) {
      assert.notEqual(out[key], "ok", key);
    }
    assert.deepEqual(names(workspace.mountRoot!), ["work"]);
    const ws = names(workspace.dir);
    assert.ok(ws.includes("w.txt"), ws.join(","));
    for (const name of ["lr.txt", "mr.txt", "rep"]) assert.ok(!ws.includes(name), name);
  });
});

Deno.test("runTests() of two runs at once in one workspace keeps each run's report folder out of the other's reach", async () => {
  // The attack: two test runs in one workspace share its file system; the first writes its report
  // folder's path into the workspace, the second reads it and tries to reach that folder (read,
  // list, write a file the first run's report would be read beside). Must hold: the second run
  // finds nothing at that path (its jail binds only its own folders), and both runs report.
  if (!capped) return skip(NOT_CAPPED);
  const attack = `    import time
    try:
        os.close(os.open('a.json', os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        _role = 'a'
    except FileExistsError:
        _role = 'b'
    if _role == 'a':
        with open('a.json', 'w') as f:
            json.dump({'report': _rep}, f)
        # Until the second run is done with its probes (it opens the workspace to all when done;
        # until then its start made the workspace its uid's); bounded, never a margin.
        _met = False
        _end = time.monotonic() + 15
        while time.monotonic() < _end:
            try:
                if os.path.exists('b-done'):
                    _met = True
                    break
            except OSError:
                pass
            time.sleep(0.02)
        _say({'role': 'a', 'met': _met, 'report': _rep})
    else:
        _other = json.load(open('a.json'))['report']
        _say({
            'role': 'b',
            'other': _other,
            'mine': _rep,
            'parent': sorted(os.listdir(_top)),
            'stat': _attempt(lambda: os.stat(_other)),
            'list': _attempt(lambda: os.listdir(_other)),
            'write': _attempt(lambda: open(os.path.join(_other, 'report'), 'w').close()),
            'root': _attempt(lambda: os.listdir('/proc/1/root' + _other)),
        })
        open('b-done', 'w').close()
        os.chmod('.', 0o777)`;
  await withCapped(calc(attack), async ({ workspace, run }) => {
    Deno.writeTextFileSync(join(workspace.dir, "ATTACK"), "");
    const first = run();
    // The second starts once the first has said where its folder is (polled, bounded).
    const marker = join(workspace.dir, "a.json");
    for (let i = 0; i < 1500; i++) {
      const text = await Deno.readTextFile(marker).catch(() => "");
      if (text.includes("report")) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const second = await run();
    const a = await first;
    const outA = said(a);
    const outB = said(second);
    console.log(JSON.stringify(outA), JSON.stringify(outB));
    assert.equal(outA.role, "a");
    assert.equal(outB.role, "b");
    assert.equal(outA.met, true, "the runs did not overlap");
    assert.equal(outB.other, outA.report);
    assert.notEqual(outB.mine, outB.other);
    for (const key of ["stat", "list", "write", "root"]) assert.notEqual(outB[key], "ok", key);
    const other = (outB.other as string).slice(workspace.mountRoot!.length + 1);
    assert.ok(!(outB.parent as string[]).includes(other), JSON.stringify(outB.parent));
    assert.ok(a.reportFound, a.result.stderr);
    assert.ok(second.reportFound, second.result.stderr);
    assert.equal(a.tests.get("tests/test_calc.py::T::test_add"), "passed");
    assert.equal(second.tests.get("tests/test_calc.py::T::test_add"), "passed");
    assert.deepEqual(names(workspace.mountRoot!), ["work"]);
  });
});

Deno.test("runTests() neither follows links planted in the report folder nor counts a report that is one", async () => {
  // The attack: links in the report folder to the workspace, to the folder above (the tmpfs's root
  // on the host) and to the tmpfs's root by its host path, for the removal to follow; and the
  // report itself a link to a forged report in the workspace claiming the failing test passed.
  // Must hold: the removal removes the links only (the workspace and the root stay whole), the
  // forged report is not read (the failing test does not pass).
  if (!capped) return skip(NOT_CAPPED);
  const attack = `    with open('keep.txt', 'w') as f:
        f.write('keep')
    with open('forged', 'w') as f:
        f.write('O passed ' + b'tests.test_calc.T.test_add'.hex() + '\\nM ' + '0' * 64 + '\\n')
    _say({
        's_ws': _attempt(lambda: os.symlink(_ws, os.path.join(_rep, 's_ws'))),
        's_up': _attempt(lambda: os.symlink('..', os.path.join(_rep, 's_up'))),
        's_top': _attempt(lambda: os.symlink(_top, os.path.join(_rep, 's_top'))),
        's_deep': _attempt(lambda: (os.mkdir(os.path.join(_rep, 'd')),
                                    os.symlink(_ws, os.path.join(_rep, 'd', 'x')))),
        # The reporter made its report already: replaced by the link.
        'report': _attempt(lambda: (os.remove(os.path.join(_rep, 'report')),
                                    os.symlink(os.path.join(_ws, 'forged'),
                                               os.path.join(_rep, 'report')))),
    })`;
  await withCapped(calc(attack, "a - b"), async ({ workspace, run }) => {
    Deno.writeTextFileSync(join(workspace.dir, "ATTACK"), "");
    const result = await run();
    const out = said(result);
    console.log(JSON.stringify(out), "reportFound:", result.reportFound);
    for (const key of ["s_ws", "s_up", "s_top", "s_deep", "report"]) assert.equal(out[key], "ok");
    assert.notEqual(result.tests.get("tests/test_calc.py::T::test_add"), "passed");
    assert.deepEqual(names(workspace.mountRoot!), ["work"]);
    const ws = names(workspace.dir);
    for (const name of ["keep.txt", "calc.py", "tests", "ATTACK"]) {
      assert.ok(ws.includes(name), `${name} in ${ws.join(",")}`);
    }
  });
});

Deno.test("runTests() removes whatever code under test leaves in its report folder, and later runs, the growth check and keep() see none of it", async () => {
  // The attack: a report folder the removal cannot take (a folder named in bytes that are not
  // UTF-8 over a chain 300 folders deep, a folder closed with mode 0, a FIFO, 3,000 files, the
  // folder itself closed with mode 0, an attempt at the immutable flag), to take the tmpfs's
  // room from later runs and the grader, or to be carried out by keep(). Must hold: nothing is
  // left beside the workspace, the workspace measures as before, a later run reports, keep()
  // copies the workspace alone, and no mount or folder is left.
  if (!capped) return skip(NOT_CAPPED);
  const attack = `    import fcntl, struct
    _r = _rep.encode()
    _p = os.path.join(_r, b'\\xff\\xfe')
    os.mkdir(_p)
    for _i in range(300):
        _p = os.path.join(_p, b'd')
        os.mkdir(_p)
    os.mkdir(os.path.join(_rep, 'closed'))
    for _i in range(100):
        open(os.path.join(_rep, 'closed', 'f%d' % _i), 'w').close()
    os.chmod(os.path.join(_rep, 'closed'), 0)
    os.mkfifo(os.path.join(_rep, 'fifo'))
    for _i in range(3000):
        open(os.path.join(_rep, 'n%d' % _i), 'w').close()
    def _immutable():
        fd = os.open(os.path.join(_rep, 'n0'), os.O_RDONLY)
        try:
            fcntl.ioctl(fd, 0x40086602, struct.pack('l', 0x10))
        finally:
            os.close(fd)
    _say({'immutable': _attempt(_immutable), 'close': _attempt(lambda: os.chmod(_rep, 0))})`;
  await withCapped(calc(attack), async ({ base, workspace, run }) => {
    const before = await measureTree(workspace.dir);
    const free = await statfs(workspace.mountRoot!);
    Deno.writeTextFileSync(join(workspace.dir, "ATTACK"), "");
    const out = said(await run());
    console.log(JSON.stringify(out));
    assert.notEqual(out.immutable, "ok");
    assert.deepEqual(names(workspace.mountRoot!), ["work"]);
    Deno.removeSync(join(workspace.dir, "ATTACK"));
    const after = await measureTree(workspace.dir);
    assert.deepEqual(after.unreadable, []);
    // The same entries (bytecode the run wrote aside).
    assert.ok(after.entries <= before.entries + 2, `${before.entries} -> ${after.entries}`);
    const left = await statfs(workspace.mountRoot!);
    assert.ok(free.inodes - left.inodes <= 4, JSON.stringify({ free, left }));
    const honest = await run();
    assert.ok(honest.reportFound, honest.result.stderr);
    assert.equal(honest.tests.get("tests/test_calc.py::T::test_add"), "passed");
    const kept = await workspace.keep();
    try {
      assert.ok(!names(kept).some((n) => n.startsWith(".report-")), names(kept).join(","));
      assert.ok(names(kept).includes("calc.py"));
      assert.deepEqual(await mountsUnder(base), []);
      assert.deepEqual(names(base).filter((n) => n.startsWith("ws-") && !n.endsWith("-kept")), []);
    } finally {
      await removeTree(kept);
    }
  });
});

Deno.test("runTests() after code under test filled the workspace's file system costs only that workspace its report", async () => {
  // The attack: code under test fills the tmpfs the workspace shares with its report folders (files
  // until ENOSPC, left in the workspace), so that later runs there have no room for a
  // report; the first run without a report checks the runner in that full file system, and the
  // check's answer holds for every episode of the sandbox. Must hold: no run throws; another
  // workspace of the same sandbox reports as before (no runner problem cached); once the file is
  // gone the workspace reports again.
  if (!capped) return skip(NOT_CAPPED);
  const attack = `    _n = 0
    os.mkdir('fill')
    try:
        while True:
            # 32 MiB a file: RLIMIT_FSIZE stops one file at 64 MiB.
            with open('fill/%d' % (_n // 32), 'ab') as f:
                f.write(b'x' * (1 << 20))
            _n += 1
    except OSError as e:
        _say({'filled_mib': _n, 'error': errno.errorcode.get(e.errno)})`;
  await withCapped(calc(attack), async ({ sandbox, workspace, run, another }) => {
    Deno.writeTextFileSync(join(workspace.dir, "ATTACK"), "");
    const out = said(await run());
    console.log(JSON.stringify(out));
    assert.equal(out.error, "ENOSPC");
    Deno.removeSync(join(workspace.dir, "ATTACK"));
    // The file stays: the honest run after it in the same workspace may lose its report.
    const starved = await run();
    console.log("starved run reportFound:", starved.reportFound);
    assert.equal(await runnerProblem(sandbox, "unittest", workspace.scratch), null);
    const other = await run(await another());
    assert.ok(other.reportFound, other.result.stderr);
    assert.equal(other.tests.get("tests/test_calc.py::T::test_add"), "passed");
    await removeTree(join(workspace.dir, "fill"));
    const again = await run();
    assert.ok(again.reportFound, again.result.stderr);
    assert.equal(again.tests.get("tests/test_calc.py::T::test_add"), "passed");
    assert.deepEqual(names(workspace.mountRoot!), ["work"]);
  });
});

Deno.test("run_tests in a workspace whose file system has no inode left answers the model and leaves the episode going", async () => {
  // The attack: run_command fills every inode of the workspace's file system with empty files, so
  // the report folder (now made in that file system, not on the work root's disk) cannot be made.
  // Must hold: run_tests answers with a tool failure (it does not throw, which would end the
  // episode as broken infrastructure), and once the files are gone it runs the tests again.
  if (!capped) return skip(NOT_CAPPED);
  const root = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-rt12-env-" }));
  try {
    const env = await Environment.open({ tasksDir: TASKS, workRoot: root });
    const task = env.task("py-median-even");
    const workspace = env.newWorkspace(task);
    await workspace.ready;
    try {
      const filled = await env.sandbox.run({
        argv: [
          "python3",
          "-c",
          `import os
os.mkdir('fill')
n = 0
try:
    while True:
        os.close(os.open('fill/%d' % n, os.O_CREAT | os.O_WRONLY))
        n += 1
except OSError as e:
    print(n, e.errno)`,
        ],
        cwd: workspace.dir,
        timeoutMs: 20_000,
      });
      assert.match(filled.stdout, /^\d+ 28$/m, filled.stdout + filled.stderr);
      const ctx = toolContext(task, { workspace, sandbox: env.sandbox });
      const result = await executeTool("run_tests", {}, ctx);
      // Was an `internal_error` ("No space left on device (os error 28): tmpdir", the report
      // folder); the model is now told its workspace is full, as after a command that fills it.
      assert.equal(result.ok, false);
      assert.equal(result.code, "workspace_too_large", JSON.stringify(result));
      assert.match(result.message, /file system is full/);
      await removeTree(join(workspace.dir, "fill"));
      const again = await executeTool("run_tests", {}, ctx);
      assert.ok(again.ok, JSON.stringify(again));
      assert.match(again.output, /^\d+ passed, \d+ failed/m);
    } finally {
      await workspace.remove();
    }
    assert.deepEqual(await mountsUnder(root), []);
  } finally {
    await removeTree(root);
  }
});

Deno.test({
  name: "runTests() never makes an episode's full file system the sandbox's reporter for good",
  // The attack: the reporter is compiled once per sandbox (every episode's later runs use it) in a
  // folder of its own. When the report folder first moved into the episode's own tmpfs, that
  // folder went there too: code under test (run_command) left it exactly one inode, the report
  // folder took it, the compile folder could not be made, and the failure (null) was cached for
  // the sandbox's lifetime, so every later run of every episode compiled the reporter itself
  // (about 5 ms each). The sandbox's own folders are made in the orchestrator's (`scratchDir`),
  // only the report folder in the workspace's file system (`reportRoot`).
  async fn() {
    if (!capped) return skip(NOT_CAPPED);
    await withCapped(calc(""), async ({ base, sandbox, workspace, run }) => {
      const filled = await sandbox.run({
        argv: [
          "python3",
          "-c",
          `import os
n = 0
try:
    while True:
        os.close(os.open('f%d' % n, os.O_CREAT | os.O_WRONLY))
        n += 1
except OSError:
    pass
os.remove('f%d' % (n - 1))
print(os.statvfs('.').f_ffree)`,
        ],
        cwd: workspace.dir,
        timeoutMs: 20_000,
      });
      assert.equal(filled.stdout.trim(), "1", filled.stdout + filled.stderr);
      const starved = await run();
      console.log("first run of the sandbox, reportFound:", starved.reportFound);
      // The sandbox's reporter, for every later run of every episode.
      const compiled = await compiledReporter(sandbox, "unittest", base);
      console.log("compiled reporter cached:", compiled !== null);
      // Where nothing of an episode's is full, the same compile succeeds.
      assert.notEqual(await compiledReporter(new Sandbox({ isolation }), "unittest", base), null);
      assert.notEqual(compiled, null);
    });
  },
});

/**
 * A scoring copy as `Environment.grade` makes it, with small caps (the same formula's shape: the
 * repository plus `extra` inodes), and a diff that leaves it `room` inodes once applied: made in a
 * workspace of the same caps, as an episode's final diff is.
 */
async function fullCopyGrade(room: number) {
  const root = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-rt12-grade-" }));
  try {
    const env = await Environment.open({ tasksDir: TASKS, workRoot: root });
    const task = env.task("py-median-even");
    const snapshot = env.snapshot(task);
    const entries = snapshot.files.length + snapshot.dirs.length + 64 + 200;
    const mount = () => env.sandbox.workspaceMount(16 * 1024 ** 2, entries)!;
    const probe = startWorkspace(snapshot, { root, prefix: "probe", mount: mount() });
    let free;
    try {
      await probe.ready;
      free = (await statfs(probe.dir)).inodes;
    } finally {
      await probe.remove();
    }
    // The final diff of a workspace that gained `free - room` files.
    const plain = createWorkspace(snapshot, { root, prefix: "plain" });
    let patch;
    try {
      for (let i = 0; i < free - room; i++) {
        Deno.writeTextFileSync(join(plain.dir, `f${i}.txt`), "x\n");
      }
      patch = (await diffTree(snapshot, plain.dir)).patch;
    } finally {
      await plain.remove();
    }
    let threw: unknown = null;
    try {
      const grade = await gradePatch(task, patch, {
        sandbox: env.sandbox,
        workRoot: root,
        snapshot,
        mount: mount(),
      });
      console.log("graded:", JSON.stringify(grade.fail_to_pass), grade.patch_applied);
      // Refused: its files took the room the grader's own writes need.
      assert.equal(grade.patch_applied, false);
      assert.match(grade.patch_error!, /fills the scoring copy/);
      assert.equal(grade.fail_to_pass.passed, 0);
    } catch (error) {
      threw = error;
      console.log("grade threw:", String(error).slice(0, 300));
    }
    assert.deepEqual(await mountsUnder(root), []);
    assert.equal(threw, null, "grading threw: the sample leaves the rewards instead of earning 0");
  } finally {
    await removeTree(root);
  }
}

Deno.test({
  name: "gradePatch() of a diff that leaves its copy one inode still grades (the report folder's)",
  // The attack: the grader's report folder is made in the scoring copy's tmpfs, whose caps are the
  // episode workspace's. A final diff (bytes under the diff cap; inodes are not capped at
  // grading) that fills the workspace's inodes up to what the hidden test file takes leaves the
  // copy none for the report folder: `Deno.makeTempDir` threw ENOSPC, gradePatch threw, and
  // finish() recorded "Grading failed" with no reward: a policy's way out of its 0. A write the
  // copy's own file system refuses is now the diff's doing: a refused grade, worth 0.
  async fn() {
    if (!capped) return skip(NOT_CAPPED);
    await fullCopyGrade(1);
  },
});

Deno.test({
  name: "gradePatch() of a diff that fills its copy's inodes still grades (the hidden test's)",
  // The attack (older than the shared file system, same cause): a final diff that fills every
  // inode of the copy made restoreTestFiles() throw ENOSPC writing the hidden test file, so
  // gradePatch threw. Measured through the real path (run_command filling until ENOSPC,
  // diffTree, Environment.grade): 26,624 one-byte files, a 3.5 MB patch text whose changed file
  // contents stay under the 1 MiB diff cap, "Grading failed". Now a refused grade, worth 0.
  async fn() {
    if (!capped) return skip(NOT_CAPPED);
    await fullCopyGrade(0);
  },
});
