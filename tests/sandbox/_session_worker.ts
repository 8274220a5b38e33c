/**
 * A process for jail_session_test.ts, the orchestrator of its attacks: `tty` runs a jailed program
 * that tries to reach this process's controlling terminal (the test gives it one); `kill0` runs a
 * jailed program that signals its own process group beside a sibling jail; `group` lists the
 * processes of a running jail's PID namespace that are in this process's group; `init` runs a
 * jailed program that makes the jail's first process (bwrap's pid 1) signal its process group,
 * beside a sibling jail; `autogroup` runs a jailed program that sets the niceness of its scheduling
 * group; `sched` says which scheduling group a jailed program is in, through the launcher and
 * through the sh fallback. It prints one line, `RESULT {json}`, with what it saw; being killed is an
 * answer too. The test starts it in a session of its own, so it has an autogroup of its own.
 */
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { probeIsolation, type RunResult, Sandbox } from "../../src/sandbox/sandbox.ts";

const mode = Deno.args[0];
const isolation = await probeIsolation();
if (isolation.level !== "bwrap") {
  console.log(`RESULT ${JSON.stringify({ skipped: `no bwrap here (${isolation.reason})` })}`);
  Deno.exit(0);
}
const sandbox = new Sandbox({ isolation });
if ((mode === "autogroup" || mode === "sched") && ownAutogroup() === "") {
  // No file: a kernel without CONFIG_SCHED_AUTOGROUP. Empty: the kernel's default group, which a
  // session of its own should not be in (a CI's runner is, when no setsid() made its session).
  const reason = existsSync("/proc/self/autogroup")
    ? "this session is in no autogroup"
    : "this kernel has no autogroup";
  console.log(`RESULT ${JSON.stringify({ skipped: reason })}`);
  Deno.exit(0);
}

/** This process's autogroup line ("/autogroup-N nice K"), "" where it is in none. */
function ownAutogroup(): string {
  return existsSync("/proc/self/autogroup")
    ? Deno.readTextFileSync("/proc/self/autogroup").trim()
    : "";
}
const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-session-" }));

/** A workspace of its own for each jail. */
function workspace(name: string): string {
  const dir = join(base, name);
  mkdirSync(dir);
  return dir;
}

/** Field 7 of /proc/self/stat: the controlling terminal's device number, 0 for none. */
const TTY_OF_SELF = "open('/proc/self/stat').read().rsplit(')', 1)[1].split()[4]";

const STEAL_TERMINAL = `
import fcntl, json, os, termios
seen = {"tty_nr": ${TTY_OF_SELF}, "injected_on": []}
try:
    fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    seen["open"] = "opened"
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, b"#")
        seen["injected_on"].append("/dev/tty")
    except OSError:
        pass
except OSError as error:
    seen["open"] = error.errno
for fd in range(256):
    try:
        fcntl.ioctl(fd, termios.TIOCSTI, b"#")
        seen["injected_on"].append(fd)
    except OSError:
        pass
# A session of its own (a child, which leads no group) may take a terminal: is one of the host's
# in reach, through a descriptor, /dev/tty, /dev/console or /dev/pts?
read, write = os.pipe()
if os.fork() == 0:
    os.close(read)
    os.setsid()
    taken = []
    for fd in range(256):
        try:
            fcntl.ioctl(fd, termios.TIOCSCTTY, 1)
            taken.append(fd)
        except OSError:
            pass
    for path in ["/dev/tty", "/dev/console"] + ["/dev/pts/%d" % n for n in range(16)]:
        try:
            os.close(os.open(path, os.O_RDWR))
            taken.append(path)
        except OSError:
            pass
    os.write(write, json.dumps(taken).encode())
    os._exit(0)
os.close(write)
seen["setsid_took"] = json.loads(os.read(read, 65536))
os.wait()
print(json.dumps(seen))
`;

/**
 * bwrap's pid 1 waits for its children in wait4; the code right after that system call runs when
 * one ends. The jailed program writes there, through /proc/1/mem (the same user's process, as an
 * unprivileged user), `kill(0, SIGKILL); exit_group(0)` (x86-64), then ends, so pid 1 signals its
 * own process group.
 */
const TAKE_OVER_PID_1 = `
code = bytes([0x31, 0xff, 0xbe, 9, 0, 0, 0, 0xb8, 62, 0, 0, 0, 0x0f, 0x05,
              0x31, 0xff, 0xb8, 231, 0, 0, 0, 0x0f, 0x05])
try:
    pc = int(open("/proc/1/syscall").read().split()[-1], 16)
    with open("/proc/1/mem", "r+b", buffering=0) as mem:
        mem.seek(pc)
        mem.write(code)
except OSError as error:
    print("refused", error.errno)
else:
    print("written", flush=True)
`;

/** Sets the niceness of the jail's scheduling group (its session's autogroup) to 19. */
const NICE_AUTOGROUP = `
import json
seen = {"before": open("/proc/self/autogroup").read().split()[0]}
for path in ("/proc/self/autogroup", "/proc/1/autogroup"):
    try:
        with open(path, "w") as f:
            f.write("19")
        seen[path] = "written"
    except OSError as error:
        seen[path] = error.errno
print(json.dumps(seen))
`;

/** The pid, parent, process group and namespaced pids (`NSpid`) of every process on the host. */
function processes(): { pid: number; ppid: number; pgrp: number; nspid: string[] }[] {
  const found = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`).split(") ")[1].split(" ");
      const status = Deno.readTextFileSync(`/proc/${entry.name}/status`);
      const nspid = /^NSpid:\s+(.*)$/m.exec(status)?.[1].split(/\s+/) ?? [];
      found.push({ pid: Number(entry.name), ppid: Number(stat[1]), pgrp: Number(stat[2]), nspid });
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** The processes below this one, in PID namespaces of their own (what a jail sees). */
function jailedDescendants(): { pid: number; pgrp: number; nspid: string[] }[] {
  const all = processes();
  const below = new Set([Deno.pid]);
  for (let grown = true; grown;) {
    grown = false;
    for (const p of all) {
      if (below.has(p.ppid) && !below.has(p.pid)) (below.add(p.pid), grown = true);
    }
  }
  return all.filter((p) => p.pid !== Deno.pid && below.has(p.pid) && p.nspid.length > 1);
}

/** This process's process group (field 5 of /proc/self/stat). */
function ownGroup(): number {
  return Number(Deno.readTextFileSync("/proc/self/stat").split(") ")[1].split(" ")[2]);
}

/**
 * A jail that runs until this process releases it: it makes the file `ready` in its workspace and
 * waits for `go`, which `release` makes. Resolves once it is ready (or has ended).
 */
async function waitingJail(name: string): Promise<{ release(): Promise<RunResult> }> {
  const dir = workspace(name);
  const running = sandbox.run({
    argv: [
      "python3",
      "-c",
      "import os, time\nopen('ready', 'w').close()\nwhile not os.path.exists('go'):\n    time.sleep(0.01)\nprint('waited')",
    ],
    cwd: dir,
    timeoutMs: 20_000,
  });
  let ended = false;
  running.then(() => ended = true, () => ended = true);
  while (!ended && !existsSync(join(dir, "ready"))) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return {
    release() {
      writeFileSync(join(dir, "go"), "");
      return running;
    },
  };
}

try {
  if (mode === "tty") {
    const own = Deno.readTextFileSync("/proc/self/stat").split(") ")[1].split(" ")[4];
    const result = await sandbox.run({
      argv: ["python3", "-c", STEAL_TERMINAL],
      cwd: workspace("tty"),
      timeoutMs: 20_000,
    });
    console.log(`RESULT ${
      JSON.stringify({
        orchestratorTty: Number(own),
        exitCode: result.exitCode,
        stderr: result.stderr,
        jail: result.exitCode === 0 ? JSON.parse(result.stdout) : null,
      })
    }`);
  } else if (mode === "kill0") {
    const run = (name: string, script: string, ...args: string[]) =>
      sandbox.run({
        argv: ["python3", "-c", script, ...args],
        cwd: workspace(name),
        timeoutMs: 20_000,
      });
    const sibling = run("sibling", "import time\ntime.sleep(2)\nprint('sibling-ok')");
    // Let the sibling start first, so a signal to a group they shared would reach it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const attacker = await run(
      "attacker",
      "import os, signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nos.kill(0, signal.SIGTERM)\nprint('sent')",
    );
    // Into another process group: any the jail can name, and the orchestrator's.
    const escape = await run(
      "escape",
      `import json, os, sys\nmoved = []\nfor group in list(range(1, 200)) + [int(sys.argv[1])]:\n    try:\n        os.setpgid(0, group)\n    except OSError:\n        continue\n    if group != os.getpid():\n        moved.append(group)\nprint(json.dumps(moved))`,
      String(ownGroup()),
    );
    // A script's clean-up that ends its whole group, itself included (`trap 'kill 0' EXIT`).
    const honest = await run(
      "honest",
      "import atexit, os, signal\natexit.register(os.kill, 0, signal.SIGTERM)\nprint('done')",
    );
    const other = await sibling;
    console.log(`RESULT ${
      JSON.stringify({
        attacker: { code: attacker.exitCode, signal: attacker.signal, out: attacker.stdout },
        honest: { code: honest.exitCode, signal: honest.signal, out: honest.stdout },
        escape: { code: escape.exitCode, signal: escape.signal, out: escape.stdout },
        sibling: { code: other.exitCode, signal: other.signal, out: other.stdout },
      })
    }`);
  } else if (mode === "group") {
    const jail = await waitingJail("group");
    const jailed = jailedDescendants();
    const result = await jail.release();
    const group = ownGroup();
    console.log(`RESULT ${
      JSON.stringify({
        exitCode: result.exitCode,
        stderr: result.stderr,
        jailed: jailed.length,
        inOurGroup: jailed.filter((p) => p.pgrp === group),
      })
    }`);
  } else if (mode === "init") {
    const sibling = await waitingJail("sibling");
    const attacker = await sandbox.run({
      argv: ["python3", "-c", TAKE_OVER_PID_1],
      cwd: workspace("attacker"),
      timeoutMs: 20_000,
    });
    const other = await sibling.release();
    console.log(`RESULT ${
      JSON.stringify({
        attacker: { code: attacker.exitCode, signal: attacker.signal, out: attacker.stdout },
        sibling: { code: other.exitCode, signal: other.signal, out: other.stdout },
      })
    }`);
  } else if (mode === "autogroup") {
    const before = ownAutogroup();
    const result = await sandbox.run({
      argv: ["python3", "-c", NICE_AUTOGROUP],
      cwd: workspace("autogroup"),
      timeoutMs: 20_000,
    });
    console.log(`RESULT ${
      JSON.stringify({
        before,
        after: ownAutogroup(),
        exitCode: result.exitCode,
        stderr: result.stderr,
        jail: result.exitCode === 0 ? JSON.parse(result.stdout) : null,
      })
    }`);
  } else if (mode === "sched") {
    const mine = ownAutogroup().split(" ")[0];
    const read = "print(open('/proc/self/autogroup').read().split()[0])";
    const groupOf = async (jail: Sandbox, name: string) => {
      const result = await jail.run({
        argv: ["python3", "-c", read],
        cwd: workspace(name),
        timeoutMs: 20_000,
      });
      return result.exitCode === 0 ? result.stdout.trim() : `failed: ${result.stderr}`;
    };
    // The sh fallback cannot give up the terminal or make a group, so bwrap makes the session.
    const fallback = new Sandbox({
      isolation: { ...isolation, launcher: null, launcherReason: "test" },
    });
    console.log(`RESULT ${
      JSON.stringify({
        mine,
        launcher: isolation.launcher ? await groupOf(sandbox, "launcher") : null,
        fallback: await groupOf(fallback, "fallback"),
      })
    }`);
  } else {
    throw new Error(`unknown mode "${mode}"`);
  }
} finally {
  await Deno.remove(base, { recursive: true });
}
// The spawner thread would keep this process alive for its idle time; the answer is printed.
Deno.exit(0);
