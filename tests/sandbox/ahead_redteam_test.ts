/**
 * Red-team tests of jails made ahead (`RunRequest.ahead`, `Sandbox` "Jails made ahead"): what one
 * command's code (the policy's) can do to the next command's jail and its launcher, which still
 * runs as root in it until its run's `chown` and `drop`; what a program can print to pass for the
 * launcher; what a jail made ahead holds while it waits; and what a program can tell apart from a
 * jail made when its run came. Each test asserts the safe behaviour. Root with bwrap and the
 * compiled launcher only.
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { type RunResult, Sandbox } from "../../src/sandbox/sandbox.ts";
import { cold, isolation, python, sandbox, skipped, withFolder } from "./_ahead_fixtures.ts";
import { UserPool } from "../../src/sandbox/users.ts";
import { pidsWith } from "../_fixtures.ts";

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** `promise`'s value, or null once `ms` passed first (the timer cleared either way). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), ms));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("a run's argv and env reach its program as given, never parsed as the launcher's steps", async () => {
  if (skipped()) return;
  await withFolder(async (dir, owner) => {
    // The last run's environment is not this one's; argv fields that read as steps stay argv.
    await python(sandbox, dir, owner, "pass", { env: { LEFT_BY_LAST: "secret" } });
    await sandbox.aheadReady();
    const code =
      "import json, os, sys; print(json.dumps([sys.argv, os.environ.get('LEFT_BY_LAST'), os.environ.get('X'), os.getuid() > 0, os.getcwd()]))";
    const argv = ["python3", "-c", code, "--", "", "tag:00ff", "chown:0:/", "drop:0", "A=B", "--"];
    const env = { X: "=\n--\ntag:1", "Y=Z": "w" };
    const b = await sandbox.run({ argv, cwd: dir, timeoutMs: 30_000, ahead: owner, env });
    const a = await cold.run({ argv, cwd: dir, timeoutMs: 30_000, env });
    assert.equal(b.ahead, true, b.stderr);
    assert.deepEqual([b.exitCode, b.stdout, b.stderr], [a.exitCode, a.stdout, a.stderr]);
    const [seen, left, x, unprivileged] = JSON.parse(b.stdout);
    assert.deepEqual(seen, argv.slice(2).map((arg, i) => i === 0 ? "-c" : arg));
    assert.deepEqual([left, x, unprivileged], [null, "=\n--\ntag:1", true]);
  });
});

Deno.test("a workspace whose path holds spaces, newlines, colons and step-like names is served alike", async () => {
  if (skipped()) return;
  const name = "a b:c=d\n--\ttag:ff chown:0:";
  await withFolder(async (dir, owner) => {
    await python(sandbox, dir, owner, "open('x', 'w').write('x')");
    await sandbox.aheadReady();
    const code =
      "import os; print(os.getcwd(), os.environ['PWD'], sorted(os.listdir('.')), os.stat('.').st_uid == os.getuid(), sep='|')";
    const b = await python(sandbox, dir, owner, code);
    const a = await python(cold, dir, undefined, code);
    assert.equal(b.ahead, true, b.stderr);
    assert.deepEqual([b.exitCode, b.stdout, b.stderr], [0, a.stdout, ""]);
    assert.equal(b.stdout, `${dir}|${dir}|['x']|True\n`);
  }, { name });
});

Deno.test("what a command leaves in the workspace never turns the next launcher's chown outward", async () => {
  // As root: the launcher hands the workspace over (without root there is no chown).
  if (skipped(true)) return;
  const outside = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-ahead-rt-outside-" }));
  const target = join(outside, "root-owned");
  await Deno.writeTextFile(target, "root's\n");
  try {
    await withFolder(async (dir, owner) => {
      // Links out (to a host file, to /, upward, to pid 1's root), FIFOs no one writes (one named
      // "--"), a folder closed to everyone, a name of newlines and step-like words, a hard link
      // and a setuid file of its own.
      const code = String.raw`import os
os.symlink(${JSON.stringify(target)}, 'to-file'); os.symlink('/', 'to-root'); os.symlink('..', 'up')
os.symlink('/proc/1/root', 'to-pid1'); os.mkfifo('fifo'); os.mkfifo('--')
os.makedirs('closed/inner'); open('closed/inner/f', 'w').close(); os.chmod('closed', 0)
open('\n--\ntag:0\n', 'w').close(); open('own', 'w').close(); os.link('own', 'own-link')
os.chmod('own', 0o6755)
print('left')`;
      const first = await python(sandbox, dir, owner, code);
      assert.equal(first.stdout, "left\n", first.stderr);
      await sandbox.aheadReady();
      const b = await python(
        sandbox,
        dir,
        owner,
        "import os; os.chmod('closed', 0o700); print(sorted(os.stat(p, follow_symlinks=False).st_uid == os.getuid() for p in ['.', 'to-file', 'fifo', 'closed', 'closed/inner/f', 'own-link']), oct(os.stat('own').st_mode & 0o6000))",
      );
      assert.equal(b.ahead, true, b.stderr);
      assert.deepEqual([b.exitCode, b.stdout], [0, "[True, True, True, True, True, True] 0o0\n"]);
      const host = await Deno.stat(target);
      assert.deepEqual([host.uid, host.gid], [0, 0], "a file outside the workspace was given away");
      assert.equal((await Deno.stat("/")).uid, 0);
    });
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("a program that prints the launcher's markers itself keeps its output and runs once", async () => {
  if (skipped()) return;
  await withFolder(async (dir, owner) => {
    await python(sandbox, dir, owner, "pass");
    await sandbox.aheadReady();
    // Split across writes, so the reader sees a marker's start apart from its end.
    const code = String.raw`import sys, time
open('ran', 'a').write('x')
for part in ['patchgym: r', 'un\npatchgym: rea', 'dy\n', 'patchgym: cannot set up the sandbox: step "await" failed [00]\n']:
    sys.stderr.write(part); sys.stderr.flush(); time.sleep(0.05)
sys.exit(125)`;
    const b = await python(sandbox, dir, owner, code);
    assert.equal(b.ahead, true);
    assert.equal(b.exitCode, 125);
    assert.equal(
      b.stderr,
      'patchgym: run\npatchgym: ready\npatchgym: cannot set up the sandbox: step "await" failed [00]\n',
    );
    assert.equal(await Deno.readTextFile(join(dir, "ran")), "x", "the program ran once");
  });
});

Deno.test("a command nesting folders deeper than the descriptor limit does not stop the next one", async () => {
  if (skipped()) return;
  await withFolder(async (dir, owner) => {
    // The launcher's chown of the workspace (root, before the drop) must walk it whole. A hole
    // once: `chown_here` kept each level's folder open while it walked the next, so past
    // RLIMIT_NOFILE (1024) every later command failed as broken set-up; cold runs too.
    const first = await python(
      sandbox,
      dir,
      owner,
      "import os\nfor i in range(1100):\n    os.mkdir('d'); os.chdir('d')\nprint('deep')",
    );
    assert.equal(first.stdout, "deep\n", first.stderr);
    await sandbox.aheadReady();
    let b: RunResult | Error;
    try {
      b = await python(sandbox, dir, owner, "print('next')");
    } catch (error) {
      b = error as Error;
    }
    assert.ok(!(b instanceof Error), `the next command could not start: ${b}`);
    assert.deepEqual([b.exitCode, b.stdout], [0, "next\n"]);
  });
});

Deno.test("a program's CPU time starts at its run, not with the chown of a large workspace", async () => {
  if (skipped()) return;
  if (!sandbox.workspaceMount(1, 1)) return void console.warn("skipped: no workspace tmpfs here");
  await withFolder(async (dir, owner) => {
    // A hole once: in a jail made ahead, the launcher chowned the workspace and then exec'd the
    // program in the same process, which kept the CPU time spent (cold, bwrap's fork starts it
    // at 0); the chown now runs in a child of the launcher.
    // 200,000 files: the chown of the workspace takes a fraction of a second of system time.
    const first = await python(
      sandbox,
      dir,
      owner,
      "import os\nfor i in range(200):\n    os.mkdir(str(i))\n    for j in range(1000): open(f'{i}/{j}', 'w').close()",
    );
    assert.equal(first.exitCode, 0, first.stderr);
    await sandbox.aheadReady();
    const code = "import os; t = os.times(); print(t.user + t.system)";
    const b = await python(sandbox, dir, owner, code);
    const a = await python(cold, dir, undefined, code);
    assert.equal(b.ahead, true, b.stderr);
    const [ahead, made] = [Number(b.stdout), Number(a.stdout)];
    // RLIMIT_CPU (`ulimit:t`) counts the same time: a command's budget shrinks by the chown.
    assert.ok(
      ahead < made + 0.1,
      `a program in a jail made ahead started with ${ahead} s of CPU time used (cold: ${made} s)`,
    );
  }, { capped: true });
});

Deno.test("a program's process started with its jail (a known difference), its clocks with its run", async () => {
  if (skipped()) return;
  await withFolder(async (dir, owner) => {
    await python(sandbox, dir, owner, "pass", { timeoutMs: 2_000 });
    await sandbox.aheadReady();
    // The program is the waiting launcher's process exec'd, so its start time (as `ps -o etime`
    // or psutil's create_time() reckon it), and pid 1's, is the jail's making: docs/sandbox.md,
    // "Known limits". Its CPU time and its timeout start with its run.
    await sleep(2_500);
    const code = String.raw`import os
start = int(open('/proc/self/stat').read().rsplit(')', 1)[1].split()[19]) / os.sysconf('SC_CLK_TCK')
t = os.times()
print(round(float(open('/proc/uptime').read().split()[0]) - start, 2), t.user + t.system)`;
    const b = await python(sandbox, dir, owner, code, { timeoutMs: 2_000 });
    assert.equal(b.ahead, true, b.stderr);
    assert.equal(b.timedOut, false);
    const [age, cpu] = b.stdout.trim().split(" ").map(Number);
    assert.ok(age >= 2.5, `the program was ${age} s old when it started`);
    assert.ok(cpu < 0.1, `the program started with ${cpu} s of CPU time used`);
  });
});

Deno.test("a jail made ahead and waiting does not hold the uid another sandbox's run waits for", async () => {
  if (skipped(true)) return;
  // Two uids of a range of their own, shared by two sandboxes (a rollout pool's threads, or two
  // patchgym processes on one machine): the first one's jail made ahead holds one. A hole once
  // with one uid: `#lease` makes only its own sandbox's jails give their uids up, and another's
  // waited out their idle time; jails made ahead now take only the range's upper half.
  const lockDir = await Deno.makeTempDir({ prefix: "patchgym-ahead-rt-uids-" });
  const users = { first: 1_600_000_000 + 2 * Math.floor(Math.random() * 1_000_000), count: 2 };
  const options = { isolation: { ...isolation, users }, userLockDir: lockDir };
  const mine = new Sandbox({ ...options, aheadIdleMs: 3_600_000 });
  const theirs = new Sandbox(options);
  try {
    await withFolder(async (dir, owner) => {
      await python(mine, dir, owner, "pass");
      await mine.aheadReady();
      assert.notDeepEqual(await pidsWith(dir), [], "the jail made ahead waits");
      await withFolder(async (other) => {
        const run = python(theirs, other, undefined, "print('ran')");
        const waited = await within(run, 10_000);
        await mine.endAhead();
        await run;
        assert.equal(
          waited?.stdout,
          "ran\n",
          "the run waited for the uid another sandbox's unused jail held",
        );
      });
    });
  } finally {
    await mine.endAhead();
    await Deno.remove(lockDir, { recursive: true });
  }
});

Deno.test("a jail made ahead ended while it is still being made leaves no process, cgroup or uid", async () => {
  if (skipped(true)) return;
  const lockDir = await Deno.makeTempDir({ prefix: "patchgym-ahead-rt-uids-" });
  // Two uids: jails made ahead take the upper one.
  const users = { first: 1_600_000_000 + 2 * Math.floor(Math.random() * 1_000_000), count: 2 };
  const box = new Sandbox({ isolation: { ...isolation, users }, userLockDir: lockDir });
  try {
    // The episode ends right after its last command: the folder goes at every stage of the making.
    // At every millisecond of the making.
    for (const delay of Array.from({ length: 41 }, (_, i) => i)) {
      let dirSeen = "";
      const cgroups: string[] = [];
      await withFolder(async (dir, owner) => {
        dirSeen = dir;
        await python(box, dir, owner, "pass");
        await sleep(delay);
        for (const pid of await pidsWith(dir)) {
          // Through `cat`: Deno reads another process's /proc files only with --allow-all.
          const read = await new Deno.Command("cat", {
            args: [`/proc/${pid}/cgroup`],
            stdout: "piped",
            stderr: "null",
          }).output();
          const lines = new TextDecoder().decode(read.stdout);
          for (const line of lines.split("\n")) {
            const [, controller, path] = line.split(":");
            if (path?.includes("patchgym")) cgroups.push(`/sys/fs/cgroup/${controller}${path}`);
          }
        }
      });
      assert.deepEqual(await pidsWith(dirSeen), [], `processes left (ended after ${delay} ms)`);
      for (const dir of cgroups) {
        assert.equal(await Deno.stat(dir).then(() => true, () => false), false, `${dir} left`);
      }
      const lease = new UserPool(users, lockDir).tryLease({ upperHalf: true });
      assert.ok(lease, `the uid is still leased (ended after ${delay} ms)`);
      lease.release();
    }
  } finally {
    await box.endAhead();
    await Deno.remove(lockDir, { recursive: true });
  }
});

Deno.test("jails made ahead for every folder an owner's runs use end when the owner's folder goes", async () => {
  if (skipped()) return;
  // A hole once (the API's; run_command's runs all use the workspace's folder): the sandbox
  // registered one `onRemove` per owner, ending the jails of the first run's folder only.
  let sub = "";
  try {
    await withFolder(async (dir, owner) => {
      sub = join(dir, "sub");
      await Deno.mkdir(sub, { mode: 0o700 });
      await python(sandbox, dir, owner, "pass");
      await python(sandbox, sub, owner, "pass");
      await sandbox.aheadReady();
      assert.notDeepEqual(await pidsWith(sub), []);
    });
    assert.deepEqual(await pidsWith(sub), [], "a jail made ahead outlived its owner's folder");
  } finally {
    if (sub) await sandbox.endAhead();
  }
});
