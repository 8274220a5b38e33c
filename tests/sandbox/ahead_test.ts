/**
 * Jails made ahead (`RunRequest.ahead`): once a command of an episode ends, the next command's
 * jail is made and waits for it. What its program sees, what it may change and how it ends must be
 * what the same program sees started the usual way; nothing of one run may reach the next; a jail
 * that is not used ends with nothing left. Root with bwrap and the compiled launcher only;
 * elsewhere every jail is made when its run comes, which the last test checks.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Sandbox } from "../../src/sandbox/sandbox.ts";
import {
  aheadable,
  cold,
  isolation,
  python,
  rootAhead,
  sandbox,
  skipped,
  withFolder,
} from "./_ahead_fixtures.ts";
import { pidsWith } from "../_fixtures.ts";

/** What the jail's `/tmp` holds of the folder: its first part under /tmp, where it is there. */
function topOf(dir: string): string[] {
  return dir.startsWith("/tmp/") ? [dir.slice(5).split("/")[0]] : [];
}

/** Everything a program can see of its process and jail, as JSON. */
const PROBE = String.raw`import json, os, resource, signal, socket, sys
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
limits = {name: resource.getrlimit(getattr(resource, name)) for name in dir(resource) if name.startswith("RLIMIT_")}
print(json.dumps({
  "ids": [os.getuid() == os.geteuid() == os.getgid() > 0, os.getgroups()],
  "caps": {k: status[k].strip() for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp")},
  "cwd": os.getcwd(), "env": dict(os.environ), "umask": os.umask(0o22), "pid": os.getpid(), "ppid": os.getppid(),
  "root": sorted(os.listdir("/")), "mounts": sorted(line.split()[4] for line in open("/proc/self/mountinfo")),
  "cgroup": open("/proc/self/cgroup").read(), "limits": limits, "nice": os.getpriority(os.PRIO_PROCESS, 0),
  "fds": sorted(os.listdir("/proc/self/fd")), "stdin": [os.path.realpath("/proc/self/fd/0"), sys.stdin.read()],
  "blocked": sorted(int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, [])), "argv": sys.argv,
  "hostname": socket.gethostname(), "net": open("/proc/net/dev").read().count("\n"),
  "leader": os.getpgrp() == os.getpid(), "processes": sorted(p for p in os.listdir("/proc") if p.isdigit()),
  "tmp": sorted(os.listdir("/tmp")), "shm": sorted(os.listdir("/dev/shm")),
  "environ": open("/proc/self/environ", "rb").read().decode("utf-8", "replace"),
}, sort_keys=True))
sys.stderr.write("done\n")
sys.exit(3)
`;

Deno.test("a command's next jail is made ahead, and its program sees what one made for it sees", async () => {
  if (skipped()) return;
  await withFolder(async (dir, owner) => {
    const env = { A: "b=c", EMPTY: "", WIDE: "ü ✓", PYTHONPATH: "/nowhere" };
    const first = await python(sandbox, dir, owner, "pass", { env });
    assert.equal(first.ahead, false, "the first run's jail is made when it comes");
    await sandbox.aheadReady();
    const a = await python(cold, dir, undefined, PROBE, { env });
    const b = await python(sandbox, dir, owner, PROBE, { env });
    assert.equal(a.ahead, false);
    assert.equal(b.ahead, true, b.stderr);
    assert.deepEqual([b.exitCode, b.signal, b.stderr], [a.exitCode, a.signal, a.stderr]);
    assert.deepEqual([b.exitCode, b.stderr], [3, "done\n"]);
    const seen = [JSON.parse(a.stdout), JSON.parse(b.stdout)];
    assert.deepEqual(seen[1], seen[0]);
    assert.equal(seen[1].caps.CapEff, "0000000000000000");
    if (rootAhead) {
      // As root the launcher drops to the sandbox's uid with no groups and no bounding set.
      assert.deepEqual(seen[1].ids, [true, []]);
      assert.equal(seen[1].caps.CapBnd, "0000000000000000");
    }
    assert.equal(seen[1].caps.NoNewPrivs, "1");
    assert.equal(seen[1].caps.Seccomp, "2");
    assert.deepEqual(seen[1].stdin, ["/dev/null", ""]);
    for (const [name, value] of Object.entries(env)) assert.equal(seen[1].env[name], value);
  });
});

Deno.test("a jail made ahead gets what the orchestrator wrote since, as its run's uid's", async () => {
  if (skipped()) return;
  await withFolder(async (dir, owner) => {
    await python(sandbox, dir, owner, "open('mine.txt', 'w').write('a run wrote this\\n')");
    await sandbox.aheadReady();
    // Written as root between the runs, as a tool writes a patch.
    await Deno.mkdir(join(dir, "new"));
    await Deno.writeTextFile(join(dir, "new", "patched.txt"), "patched\n");
    const b = await python(
      sandbox,
      dir,
      owner,
      "import os; open('new/patched.txt', 'a').write('more\\n'); os.rename('mine.txt', 'new/mine.txt'); print(open('new/patched.txt').read(), end='')",
    );
    assert.equal(b.ahead, true, b.stderr);
    assert.equal(b.exitCode, 0, b.stderr);
    assert.equal(b.stdout, "patched\nmore\n");
  });
});

Deno.test("nothing of one command reaches the next one's jail made ahead", async () => {
  if (skipped()) return;
  await withFolder(async (dir, owner) => {
    const token = `ahead-left-${crypto.randomUUID()}`;
    // Files in its /tmp and /dev/shm, and a process in a session of its own, asleep.
    const first = await python(
      sandbox,
      dir,
      owner,
      `import os, subprocess
open('/tmp/left', 'w').write('x'); open('/dev/shm/left', 'w').write('x')
subprocess.Popen(['python3', '-c', 'import time; time.sleep(600)', '${token}'], start_new_session=True)
print('left')`,
    );
    assert.equal(first.stdout, "left\n", first.stderr);
    assert.deepEqual(await pidsWith(token), []);
    await sandbox.aheadReady();
    const b = await python(
      sandbox,
      dir,
      owner,
      "import os; print([n for n in os.listdir('/tmp')], os.listdir('/dev/shm'), sorted(p for p in os.listdir('/proc') if p.isdigit()))",
    );
    assert.equal(b.ahead, true, b.stderr);
    // The folder is bound where it is, which may be under /tmp.
    assert.equal(b.stdout, `${JSON.stringify(topOf(dir))} [] ['1', '2']\n`.replaceAll('"', "'"));
  });
});

Deno.test("a jail made ahead counts its run's timeout from the run", async () => {
  if (skipped()) return;
  await withFolder(async (dir, owner) => {
    const timeoutMs = 2_000;
    await python(sandbox, dir, owner, "pass", { timeoutMs });
    await sandbox.aheadReady();
    // Longer than the timeout: a clock started with the jail would end the next run at once.
    await new Promise((resolve) => setTimeout(resolve, timeoutMs + 500));
    const b = await python(sandbox, dir, owner, "print('on time')", { timeoutMs });
    assert.equal(b.ahead, true, b.stderr);
    assert.deepEqual([b.timedOut, b.exitCode, b.stdout], [false, 0, "on time\n"]);
    await sandbox.aheadReady();
    const token = `ahead-timeout-${crypto.randomUUID()}`;
    const c = await python(
      sandbox,
      dir,
      owner,
      `import subprocess, time; subprocess.Popen(['python3', '-c', 'import time; time.sleep(600)', '${token}'], start_new_session=True); time.sleep(600)`,
      { timeoutMs },
    );
    assert.equal(c.ahead, true, c.stderr);
    assert.equal(c.timedOut, true);
    assert.deepEqual(await pidsWith(token), []);
  });
});

Deno.test("a jail made ahead ends with nothing left when its folder goes", async () => {
  if (skipped()) return;
  let dirSeen = "";
  await withFolder(async (dir, owner) => {
    dirSeen = dir;
    await python(sandbox, dir, owner, "pass");
    await sandbox.aheadReady();
    assert.notDeepEqual(await pidsWith(dir), [], "the jail waits, bound to the folder");
  });
  // `withFolder` ran the owner's cleanups before it removed the folder.
  assert.deepEqual(await pidsWith(dirSeen), []);
});

Deno.test("a jail made ahead and unused for its idle time ends; the next run's jail is made then", async () => {
  if (skipped()) return;
  const brief = new Sandbox({ isolation, aheadIdleMs: 100 });
  await withFolder(async (dir, owner) => {
    await python(brief, dir, owner, "pass");
    await brief.aheadReady();
    for (let i = 0; (await pidsWith(dir)).length > 0; i++) {
      assert.ok(i < 400, "the jail made ahead never ended");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const b = await python(brief, dir, owner, "print('made now')");
    assert.deepEqual([b.ahead, b.exitCode, b.stdout], [false, 0, "made now\n"]);
    await brief.endAhead();
  });
});

Deno.test("a jail made ahead that was killed before its run leaves the run to a jail made then", async () => {
  if (skipped()) return;
  await withFolder(async (dir, owner) => {
    await python(sandbox, dir, owner, "pass");
    await sandbox.aheadReady();
    const pids = await pidsWith(dir);
    assert.notDeepEqual(pids, []);
    await new Deno.Command("kill", { args: ["-KILL", ...pids.map(String)] }).output();
    // Gone (bwrap's pid 1 goes last of its namespace): killed any later, it took its run first.
    for (let i = 0; (await pidsWith(dir)).length > 0; i++) {
      assert.ok(i < 400, "the killed jail never ended");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const b = await python(sandbox, dir, owner, "open('ran', 'a').write('x'); print('ran')");
    assert.deepEqual([b.ahead, b.exitCode, b.stdout], [false, 0, "ran\n"], b.stderr);
    assert.equal(await Deno.readTextFile(join(dir, "ran")), "x", "the program ran once");
  });
});

Deno.test("runs of another shape, with stdin or without an owner never take a jail made ahead", async () => {
  if (skipped()) return;
  await withFolder(async (dir, owner) => {
    await python(sandbox, dir, owner, "pass");
    await sandbox.aheadReady();
    const others = [
      await python(sandbox, dir, owner, "print(1)", { timeoutMs: 29_000 }),
      await python(sandbox, dir, owner, "print(1)", { maxOutputBytes: 1024 }),
      await python(sandbox, dir, owner, "print(1)", { stdin: new Uint8Array([1]) }),
      await python(sandbox, dir, undefined, "print(1)"),
    ];
    for (const other of others) assert.deepEqual([other.ahead, other.stdout], [false, "1\n"]);
    const b = await python(sandbox, dir, owner, "print(2)");
    assert.deepEqual([b.ahead, b.stdout], [true, "2\n"]);
  });
});

Deno.test("two runs at once of one shape: one takes the jail made ahead, both run", async () => {
  if (skipped()) return;
  await withFolder(async (dir, owner) => {
    await python(sandbox, dir, owner, "pass");
    await sandbox.aheadReady();
    const both = await Promise.all([
      python(sandbox, dir, owner, "print('a')"),
      python(sandbox, dir, owner, "print('b')"),
    ]);
    assert.deepEqual(both.map((r) => r.stdout), ["a\n", "b\n"]);
    assert.deepEqual(both.map((r) => r.ahead).sort(), [false, true]);
  });
});

Deno.test("where jails cannot be made ahead, every command's jail is made when it comes", async () => {
  await withFolder(async (dir, owner) => {
    const runs = [];
    for (let i = 0; i < 3; i++) {
      runs.push(await python(sandbox, dir, owner, "print('ok')"));
      await sandbox.aheadReady();
    }
    assert.deepEqual(runs.map((r) => r.stdout), ["ok\n", "ok\n", "ok\n"]);
    assert.deepEqual(runs.map((r) => r.ahead), [false, aheadable, aheadable]);
  });
});

Deno.test("a jail made ahead gives its uid up to a run that finds none free", async () => {
  if (skipped(true)) return;
  // Two uids of a range of its own: the jail made ahead holds the upper one (the only one jails
  // made ahead may take) once the first run ended; a run holds the lower one.
  const users = { first: 1_600_000_000 + 2 * Math.floor(Math.random() * 1_000_000), count: 2 };
  // Never idle long enough to end on its own while the test runs.
  const scarce = new Sandbox({ isolation: { ...isolation, users }, aheadIdleMs: 3_600_000 });
  await withFolder(async (dir, owner) => {
    await python(scarce, dir, owner, "pass");
    await scarce.aheadReady();
    await withFolder(async (other) => {
      const holding = python(scarce, other, undefined, "import sys; sys.stdin.read()", {
        stdin: new Uint8Array(0),
      });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const b = await Promise.race([
        python(scarce, other, undefined, "import os; print(os.getuid())"),
        new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), 60_000)),
      ]);
      clearTimeout(timer);
      assert.ok(b, "the run waited for the uid the jail made ahead held");
      assert.equal(b.exitCode, 0, b.stderr);
      assert.ok([users.first, users.first + 1].includes(Number(b.stdout)), b.stdout);
      await holding;
    });
    // And the folder's next run has its jail made when it comes.
    const c = await python(scarce, dir, owner, "print('made now')");
    assert.deepEqual([c.ahead, c.stdout], [false, "made now\n"]);
  });
  await scarce.endAhead();
});

Deno.test("jails made ahead take uids from the upper half of the range only", async () => {
  if (skipped(true)) return;
  const users = { first: 1_700_000_000 + 4 * Math.floor(Math.random() * 1_000_000), count: 4 };
  const box = new Sandbox({ isolation: { ...isolation, users } });
  const uids: number[] = [];
  for (let i = 0; i < 3; i++) {
    await withFolder(async (dir, owner) => {
      await python(box, dir, owner, "pass");
      await box.aheadReady();
      const b = await python(box, dir, owner, "import os; print(os.getuid())");
      assert.equal(b.ahead, true, b.stderr);
      uids.push(Number(b.stdout));
    });
  }
  for (const uid of uids) assert.ok(uid >= users.first + 2 && uid < users.first + 4, `${uid}`);
});

Deno.test("a jail made ahead for any of an owner's folders ends when the owner's folder goes", async () => {
  if (skipped()) return;
  let sub = "";
  await withFolder(async (dir, owner) => {
    sub = join(dir, "sub");
    await Deno.mkdir(sub, { mode: 0o700 });
    await python(sandbox, dir, owner, "pass");
    await python(sandbox, sub, owner, "pass");
    await sandbox.aheadReady();
    assert.notDeepEqual(await pidsWith(sub), []);
  });
  assert.deepEqual(await pidsWith(sub), []);
});

Deno.test("a run with a path bound inside the folder it hands over never has its jail made ahead", async () => {
  if (skipped()) return;
  await withFolder(async (dir, owner) => {
    // The jail made ahead would hand the folder over from inside the jail, where the bound path is
    // another file system (read-only) that a jail made when its run comes never walks.
    await Deno.mkdir(join(dir, "lib"));
    const readOnly = [join(dir, "lib")];
    const runs = [];
    for (let i = 0; i < 2; i++) {
      runs.push(await python(sandbox, dir, owner, "print('ok')", { readOnly }));
      await sandbox.aheadReady();
    }
    assert.deepEqual(runs.map((r) => [r.ahead, r.stdout]), [[false, "ok\n"], [false, "ok\n"]]);
  });
});
