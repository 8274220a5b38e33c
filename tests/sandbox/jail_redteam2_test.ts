/**
 * Red-team attacks on the jail as it runs with the compiled launcher (issue 26, second round),
 * through the real entry points (`Sandbox.run`, `runTests`), run as root and as an unprivileged
 * user.
 */
import assert from "node:assert/strict";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";
import {
  REPORT_FOLDER_BYTES,
  REPORT_FOLDER_ENTRIES,
  runTests,
} from "../../src/sandbox/test_runner.ts";
import { removeTree } from "../../src/workspace/remove.ts";
import { snapshotDir } from "../../src/workspace/snapshot.ts";
import { startWorkspace } from "../../src/workspace/workspace.ts";
import { mountsUnder, writeFiles } from "../_fixtures.ts";

const isolation = await probeIsolation();
const jailed = isolation.level === "bwrap";
const cappedWorkspaces = jailed && isolation.users !== null && isolation.workspaceMounts === true;

function skip(reason: string): void {
  console.warn(`skipped: ${reason}`);
}

async function withBase(fn: (base: string) => Promise<void>): Promise<void> {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-redteam2-" }));
  try {
    await fn(base);
  } finally {
    // Whatever depth a failed attack left behind.
    await removeTree(base);
  }
}

/**
 * Code under test that finds every writable place of its run besides the workspace, /tmp and
 * /dev/shm (the runner's report folder) in mountinfo, fills it with big files and many small
 * ones, and writes what it managed into the workspace.
 */
const FLOOD = `import json, os
ws = os.getcwd()
places = []
for line in open('/proc/self/mountinfo'):
    fields = line.split()
    point, options = fields[4], fields[5]
    if 'rw' in options.split(',') and point not in ('/tmp', '/dev/shm', ws) and \\
            not point.startswith(('/proc', '/dev')) and not point.startswith(ws + '/'):
        places.append(point)
written, files = 0, 0
block = b'x' * (1 << 20)
for place in places:
    for i in range(4):
        try:
            with open(os.path.join(place, 'big%d' % i), 'wb') as f:
                for _ in range(50):
                    f.write(block)
                    written += len(block)
        except OSError:
            break
    try:
        os.mkdir(os.path.join(place, 'many'))
        for i in range(30000):
            open(os.path.join(place, 'many', str(i)), 'w').close()
            files += 1
    except OSError:
        pass
print('FLOOD ' + json.dumps({'places': places, 'written': written, 'files': files}), flush=True)
with open(os.path.join(ws, 'flood.json'), 'w') as f:
    json.dump({'places': places, 'written': written, 'files': files}, f)

def add(a, b):
    return a + b
`;

Deno.test("runTests() as root caps the report folder code under test can write, as the workspace is", async () => {
  // The attack: the report folder is the one place besides the workspace that code under test may
  // write, and it lay on the work root's disk, uncapped: a test run wrote 200 MiB and 30,000
  // files there, past the workspace's caps, while the workspace itself was a capped tmpfs.
  if (!cappedWorkspaces) {
    return skip("the workspace is not a capped file system here (not root with bwrap)");
  }
  await withBase(async (base) => {
    const dir = join(base, "repo");
    writeFiles(dir, {
      "calc.py": FLOOD,
      "tests/test_calc.py":
        "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n",
    });
    const run = await runTests(new Sandbox({ isolation }), {
      runner: "unittest",
      dir,
      files: ["tests/test_calc.py"],
      timeoutMs: 60_000,
    });
    const flood = JSON.parse(await Deno.readTextFile(join(dir, "flood.json")));
    assert.equal(flood.places.length, 1, JSON.stringify(flood));
    assert.ok(
      flood.written <= 68 * 1024 ** 2,
      `wrote ${flood.written} bytes: ${JSON.stringify(flood)}`,
    );
    assert.ok(flood.files <= 20_000, `made ${flood.files} files`);
    // The run itself still reports (the flood ended before the tests ran).
    assert.ok(run.reportFound || run.result.exitCode !== 0, run.result.stderr);
  });
});

Deno.test("runTests() in a capped workspace makes the report folder in its file system, capped with it, and mounts none", async () => {
  // The same flood where the report folder is made beside the workspace, in the workspace's own
  // file system (no mount per run): it stops at that file system's caps, which hold the
  // workspace's room and one report folder's, never on the work root's disk.
  if (!cappedWorkspaces) {
    return skip("the workspace is not a capped file system here (not root with bwrap)");
  }
  await withBase(async (base) => {
    const repo = join(base, "repo");
    writeFiles(repo, {
      "calc.py": FLOOD,
      "tests/test_calc.py":
        "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(1, 2), 3)\n",
    });
    const sandbox = new Sandbox({ isolation });
    const room = 4 * 1024 ** 2;
    const workspace = startWorkspace(snapshotDir(repo), {
      root: base,
      mount: sandbox.workspaceMount(room + REPORT_FOLDER_BYTES, 100 + REPORT_FOLDER_ENTRIES)!,
    });
    await workspace.ready;
    let mounts = 0;
    const mount = sandbox.workspaceMount.bind(sandbox);
    sandbox.workspaceMount = (bytes, entries) => (mounts++, mount(bytes, entries));
    try {
      assert.notEqual(workspace.mountRoot, null);
      const run = await runTests(sandbox, {
        runner: "unittest",
        dir: workspace.dir,
        scratchDir: workspace.scratch,
        reportRoot: workspace.mountRoot!,
        files: ["tests/test_calc.py"],
        timeoutMs: 60_000,
      });
      assert.equal(mounts, 0);
      const said = run.result.stdout.split("\n").find((line) => line.startsWith("FLOOD "));
      assert.ok(said, run.result.stdout + run.result.stderr);
      const flood = JSON.parse(said.slice(6));
      assert.equal(flood.places.length, 1, said);
      assert.ok(flood.places[0].startsWith(`${workspace.mountRoot}/.report-`), said);
      assert.ok(flood.written <= room + REPORT_FOLDER_BYTES, said);
      assert.ok(flood.files <= 100 + REPORT_FOLDER_ENTRIES, said);
      // Nothing of the run's folder is left beside the workspace, and nothing reached the disk.
      assert.deepEqual([...Deno.readDirSync(workspace.mountRoot!)].map((e) => e.name), ["work"]);
      assert.deepEqual(
        [...Deno.readDirSync(base)].map((e) => e.name).sort(),
        ["repo", workspace.mountRoot!.slice(base.length + 1)].sort(),
      );
    } finally {
      await workspace.remove();
    }
    assert.deepEqual(await mountsUnder(base), []);
  });
});

Deno.test("Sandbox.run() waits for a jail that takes long to die instead of failing the run", async () => {
  // The attack: millions of empty files in the jail's /tmp make its processes take seconds to
  // finish exiting (the kernel frees the file system as the last one goes). The cgroup sweep gave
  // up after a count of rounds without pauses: the run threw "Cannot remove the sandbox cgroup"
  // (the tool call, or the grader's run, failed as broken infrastructure) and left its cgroup.
  if (!jailed) return skip("no bwrap here: no jail /tmp");
  if (!isolation.cgroup) return skip("no cgroups here: nothing is swept");
  await withBase(async (base) => {
    const ws = join(base, "ws");
    mkdirSync(ws);
    const result = await new Sandbox({ isolation }).run({
      argv: [
        "python3",
        "-c",
        `import os
n = 0
while n < 800_000:
    try:
        os.close(os.open('/tmp/%d' % n, os.O_CREAT | os.O_WRONLY))
    except OSError:
        break
    n += 1
print(n)`,
      ],
      cwd: ws,
      timeoutMs: 60_000,
    });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(Number(result.stdout), 800_000, result.stdout);
  });
});

Deno.test("runTests() binds the environment's folder over whatever the agent left at its place", async () => {
  // The attack: the agent's code replaced the workspace's `node_modules` (where a task's npm
  // environment is bound read-only) with a symlink or a file. The bind check then threw a
  // SandboxError on every later run_tests, which ended the episode as broken infrastructure.
  if (!jailed) return skip("no bwrap here: no binds");
  await withBase(async (base) => {
    const env = join(base, "env");
    writeFiles(env, { "marker.txt": "from the environment\n" });
    const dir = join(base, "repo");
    writeFiles(dir, {
      "calc.py": "def add(a, b):\n    return a + b\n",
      "tests/test_calc.py":
        "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_env(self):\n        self.assertEqual(open('node_modules/marker.txt').read(), 'from the environment\\n')\n",
    });
    for (const plant of ["symlink", "file", "dangling"]) {
      await Deno.remove(join(dir, "node_modules"), { recursive: true }).catch(() => {});
      if (plant === "symlink") await Deno.symlink("/", join(dir, "node_modules"));
      if (plant === "dangling") await Deno.symlink(join(base, "made"), join(dir, "node_modules"));
      if (plant === "file") await Deno.writeTextFile(join(dir, "node_modules"), "planted");
      const run = await runTests(new Sandbox({ isolation }), {
        runner: "unittest",
        dir,
        files: ["tests/test_calc.py"],
        timeoutMs: 30_000,
        environment: {
          mounts: [],
          pythonPaths: [],
          sourceRoots: [],
          pytestArgs: [],
          binds: [{ source: env, dest: "node_modules" }],
        },
      });
      assert.deepEqual(run.counts, { passed: 1, failed: 0, skipped: 0 }, plant + run.result.stderr);
      assert.equal(await Deno.stat(join(base, "made")).then(() => true, () => false), false);
    }
  });
});

Deno.test("Sandbox.run() tells the launcher's own failure from a program that prints the same", async () => {
  // The attack: code under test printed the launcher's failure line and exited 125. The sandbox
  // took that for a failed set-up and threw a SandboxError, so run_command, run_tests and the
  // grader's run failed as broken infrastructure (an environment_error, which is not graded)
  // whenever the agent's code chose to.
  if (!jailed && isolation.hostRoot) return skip("root without bwrap refuses to run");
  await withBase(async (base) => {
    const ws = join(base, "ws");
    mkdirSync(ws);
    const sandbox = new Sandbox({ isolation });
    const forged = await sandbox.run({
      argv: [
        "python3",
        "-c",
        `import os, re
# Whatever the jail shows of its own set-up: the first process's command line, too.
tags = set()
for pid in os.listdir('/proc'):
    try:
        tags.update(re.findall(rb'\\btag:(\\w+)', open('/proc/%s/cmdline' % pid, 'rb').read()))
    except OSError:
        pass
line = 'patchgym: cannot set up the sandbox: forged'
os.write(2, (line + ''.join(' [%s]' % t.decode() for t in tags) + '\\n').encode())
os._exit(125)`,
      ],
      cwd: ws,
      timeoutMs: 20_000,
    });
    assert.equal(forged.exitCode, 125);
    assert.match(forged.stderr, /^patchgym: cannot set up the sandbox: forged/);
    // A real failure of a set-up step still throws.
    await assert.rejects(
      sandbox.run({
        argv: ["python3", "-c", "pass"],
        cwd: join(base, "missing"),
        timeoutMs: 20_000,
      }),
    );
  });
});

Deno.test("Workspace.remove() survives a tree the agent's code nested 20,000 folders deep", async () => {
  // The attack: one run_command made a workspace folder chain 20,000 deep (in about a second).
  // Removing the workspace at the episode's end with Deno.remove({ recursive: true }) overflowed
  // its thread's stack and aborted the whole patchgym process, with every other episode in it.
  // Run in a child process: the failure is an abort.
  if (!jailed && isolation.hostRoot) return skip("root without bwrap refuses to run");
  await withBase(async (base) => {
    const helper = join(base, "helper.ts");
    const module = (path: string) => JSON.stringify(import.meta.resolve(path));
    await Deno.writeTextFile(
      helper,
      `import { Sandbox } from ${module("../../src/sandbox/sandbox.ts")};
import { createWorkspace } from ${module("../../src/workspace/workspace.ts")};
const file = { path: "a.txt", content: new TextEncoder().encode("a"), mode: 0o644 };
const snapshot = { dirs: [], files: [file], byPath: new Map([[file.path, file]]) };
const workspace = createWorkspace(snapshot, { root: Deno.args[0] });
// The test's own probe, not a second one in this process.
const isolation = JSON.parse(await Deno.readTextFile(Deno.args[1]));
const result = await new Sandbox({ isolation }).run({
  argv: ["python3", "-c", "import os\\nfor i in range(20000):\\n    os.mkdir('d')\\n    os.chdir('d')"],
  cwd: workspace.dir,
  timeoutMs: 600_000,
});
if (result.exitCode !== 0) throw new Error(result.stderr);
await workspace.remove();
console.log("survived");
`,
    );
    const probed = join(base, "isolation.json");
    await Deno.writeTextFile(probed, JSON.stringify(isolation));
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-lock", helper, base, probed],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, text);
    assert.match(text, /survived/);
    assert.deepEqual([...Deno.readDirSync(base)].map((e) => e.name).sort(), [
      "helper.ts",
      "isolation.json",
    ]);
  });
});
