/**
 * The jail's session (issue 29): jails stay in the orchestrator's session, so that their niceness
 * counts against it (a session of their own is a scheduling group of its own where the kernel's
 * autogroup is on, as weighty as the whole orchestrator). What a session of its own gave stays:
 * no way to the orchestrator's terminal, and no signal to a process group outside the jail. Each
 * attack runs in a process of its own (`_session_worker.ts`), as root and as an unprivileged user
 * (CI runs this file both ways).
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";

const WORKER = fileURLToPath(new URL("./_session_worker.ts", import.meta.url));

interface Outcome {
  /** The worker's exit status and signal. */
  code: number;
  signal: string | null;
  /** What it printed after `RESULT `, or null when it printed nothing (it was killed). */
  result: Record<string, unknown> | null;
  output: string;
}

/** Run the worker in `mode`, under a terminal of its own when `terminal` (Python's pty module). */
/**
 * Python that runs argv[1:] on a new pseudo-terminal as its controlling terminal, copying what it
 * prints; with argv[1] "exclusive", the terminal is in exclusive mode first (TIOCEXCL: only root
 * may open it again, so an unprivileged /dev/tty open fails with EBUSY).
 */
const ON_A_TERMINAL = `
import fcntl, os, pty, sys, termios
exclusive = sys.argv[1] == "exclusive"
pid, fd = pty.fork()
if pid == 0:
    if exclusive:
        fcntl.ioctl(0, termios.TIOCEXCL)
    os.execvp(sys.argv[2], sys.argv[2:])
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    os.write(1, data)
sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
`;

/** How the worker runs: without a terminal, on one, or on one the launcher cannot open. */
type Terminal = "none" | "shared" | "exclusive";

async function worker(mode: string, terminal: Terminal): Promise<Outcome> {
  const deno = [Deno.execPath(), "run", "-A", "--quiet", WORKER, mode];
  const argv = terminal === "none" ? deno : ["python3", "-c", ON_A_TERMINAL, terminal, ...deno];
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    // A session of its own (`spawn` only: `output()` leaves `detached` out): an attack that gets
    // out signals the worker, not this test runner.
    detached: true,
  }).spawn().output();
  const output = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  // Keystrokes an attack pushed into the terminal are echoed before the line: it is found anywhere.
  const line = /RESULT (\{.*\})/.exec(output)?.[1];
  return {
    code: out.code,
    signal: out.signal,
    result: line ? JSON.parse(line) : null,
    output,
  };
}

function skipped(outcome: Outcome): boolean {
  if (outcome.result && "skipped" in outcome.result) {
    console.warn(`skipped: ${outcome.result.skipped}`);
    return true;
  }
  return false;
}

/** The jailed attack on the worker's terminal (`terminal`), and what must hold. */
async function stealTerminal(terminal: Terminal): Promise<void> {
  const outcome = await worker("tty", terminal);
  // Where this process has the jail, the worker must have it too: a terminal must not cost it.
  if ((await probeIsolation()).level === "bwrap") {
    assert.ok(!outcome.result || !("skipped" in outcome.result), outcome.output);
  }
  if (skipped(outcome)) return;
  assert.equal(outcome.code, 0, outcome.output);
  assert.ok(outcome.result, outcome.output);
  const result = outcome.result as {
    orchestratorTty: number;
    exitCode: number;
    jail: {
      tty_nr: string;
      open: string | number;
      injected_on: unknown[];
      setsid_took: unknown[];
    } | null;
  };
  // Not vacuous: the orchestrator did have a terminal to steal.
  assert.notEqual(result.orchestratorTty, 0, "the worker ran without a controlling terminal");
  assert.equal(result.exitCode, 0, outcome.output);
  assert.deepEqual(result.jail!.injected_on, [], outcome.output);
  assert.equal(result.jail!.tty_nr, "0", "the jail has a controlling terminal");
  assert.notEqual(result.jail!.open, "opened", "the jail opened /dev/tty");
  // A session of its own in the jail takes no terminal of the host's either.
  assert.deepEqual(result.jail!.setsid_took, [], outcome.output);
}

Deno.test("a jail cannot reach the orchestrator's controlling terminal (TIOCSTI)", async () => {
  // The attack (CVE-2017-5226): a jailed program pushes keystrokes into the terminal patchgym
  // runs in, which the shell there then runs as the user, outside every jail.
  await stealTerminal("shared");
});

Deno.test("a jail runs, without the terminal, when the launcher cannot open it", async () => {
  // A terminal in exclusive mode (TIOCEXCL) refuses an unprivileged /dev/tty open (EBUSY): the
  // launcher cannot give it up then, and once failed every jailed run as a broken set-up (each
  // episode an environment_error). It takes a session of its own instead, as bwrap's
  // --new-session did. As root the open succeeds, which the test above covers.
  await stealTerminal("exclusive");
});

Deno.test("a jail's signal to its process group reaches only the jail", async () => {
  // The attack: `os.kill(0, SIGTERM)` in the jail, which without a group of its own would signal the
  // orchestrator's group (and, for an unprivileged run, every jail of the same user in it). The
  // honest form is a script's clean-up (`trap 'kill 0' EXIT`), which must end only its own.
  const outcome = await worker("kill0", "none");
  if (skipped(outcome)) return;
  assert.equal(outcome.signal, null, `the orchestrator was killed: ${outcome.output}`);
  assert.equal(outcome.code, 0, outcome.output);
  assert.ok(outcome.result, outcome.output);
  const { attacker, escape, honest, sibling } = outcome.result as Record<
    string,
    { code: number; signal: string | null; out: string }
  >;
  assert.deepEqual(sibling, { code: 0, signal: null, out: "sibling-ok\n" }, outcome.output);
  // The attacker ignored the signal it sent its own group, so it went on and said so.
  assert.deepEqual(attacker, { code: 0, signal: null, out: "sent\n" }, outcome.output);
  assert.equal(honest.out, "done\n", outcome.output);
  // No group outside its own took it in (setpgid names a group by a pid the jail can see).
  assert.deepEqual(escape, { code: 0, signal: null, out: "[]\n" }, outcome.output);
});

Deno.test("no process a jail can see is in the orchestrator's process group", async () => {
  // The hole: without `--new-session`, bwrap's pid 1 in the jail (its reaper) stayed in the
  // orchestrator's group, and as an unprivileged user it is the jail's own user's process.
  const outcome = await worker("group", "none");
  if (skipped(outcome)) return;
  assert.equal(outcome.code, 0, outcome.output);
  const result = outcome.result as { exitCode: number; jailed: number; inOurGroup: unknown[] };
  assert.equal(result.exitCode, 0, outcome.output);
  // Not vacuous: the jail was running while the worker looked.
  assert.ok(result.jailed >= 2, outcome.output);
  assert.deepEqual(result.inOurGroup, [], outcome.output);
});

Deno.test("a jail that takes over its pid 1 signals only its own run", async () => {
  // The attack: an unprivileged jail writes code into bwrap's pid 1 through /proc/1/mem (its own
  // user's process), which then sends SIGKILL to its process group: the orchestrator's, with every
  // sibling jail's launcher in it, when pid 1 was left in it. The code is x86-64.
  if (Deno.build.arch !== "x86_64") return console.warn("skipped: the attack's code is x86-64");
  const outcome = await worker("init", "none");
  if (skipped(outcome)) return;
  assert.equal(outcome.signal, null, `the orchestrator was killed: ${outcome.output}`);
  assert.equal(outcome.code, 0, outcome.output);
  const { attacker, sibling } = outcome.result as Record<
    string,
    { code: number; signal: string | null; out: string }
  >;
  assert.deepEqual(sibling, { code: 0, signal: null, out: "waited\n" }, outcome.output);
  // Refused (pid 1 is not the jail's to write), or it ran and killed the attacker's own run only.
  assert.ok(
    attacker.out.startsWith("refused") || attacker.signal === "SIGKILL",
    outcome.output,
  );
});

Deno.test("a jail cannot change the niceness of the scheduling group it shares", async () => {
  // The attack: the jail shares the orchestrator's session, so its autogroup, whose niceness any
  // member may raise (/proc/self/autogroup): 19 slowed the orchestrator and, in a terminal, every
  // later command of the user's session, against everything else on the machine.
  const outcome = await worker("autogroup", "none");
  if (skipped(outcome)) return;
  assert.equal(outcome.code, 0, outcome.output);
  const result = outcome.result as {
    before: string;
    after: string;
    exitCode: number;
    jail: { before: string } | null;
  };
  assert.equal(result.exitCode, 0, outcome.output);
  // Not vacuous: the jail is in the worker's scheduling group (where the kernel has autogroups).
  assert.equal(result.jail!.before, result.before.split(" ")[0], outcome.output);
  assert.equal(result.after, result.before, outcome.output);
});

Deno.test("a jail shares the orchestrator's scheduling group, so its niceness holds", async () => {
  // What the change is for: with a session of its own, a jail was an autogroup of its own, and a
  // few hundred of them outweighed the orchestrator whatever their niceness. The worker has an
  // autogroup of its own (a session of its own), so the check holds where this runner has none.
  const outcome = await worker("sched", "none");
  if (skipped(outcome)) return;
  assert.equal(outcome.code, 0, outcome.output);
  const result = outcome.result as { mine: string; launcher: string | null; fallback: string };
  assert.match(result.mine, /^\/autogroup-\d+$/, outcome.output);
  if (result.launcher !== null) assert.equal(result.launcher, result.mine, outcome.output);
  assert.match(result.fallback, /^\/autogroup-\d+$/, outcome.output);
  assert.notEqual(result.fallback, result.mine, outcome.output);
});

/** Runs the launcher bound into the jail in its helper modes, and says what changed. */
const LAUNCHER_IN_JAIL = `
import json, os, subprocess, sys
launcher, here = sys.argv[1], os.getcwd()
mounts = open("/proc/self/mountinfo").read()
os.mkdir("m")
def run(*args, stdin=None):
    return subprocess.run([launcher, *args], input=stdin, capture_output=True, text=True).returncode
seen = {
    "mount-workspace": run("mount-workspace", "4096", "16", here + "/m"),
    "served mount": run("serve", stdin="1\\tmount-workspace\\t4096\\t16\\t" + here + "/m\\n"),
    "chown": run("chown:65537:" + here + "/m", "--", "true"),
    "nice": run("nice:0", "--", "true"),
}
for args in (["umount", here], ["umount-under", here], ["kill", "1"], ["mount-probe"], ["hide", "--", "true"]):
    run(*args)
seen["mounts unchanged"] = mounts == open("/proc/self/mountinfo").read()
seen["still mine"] = os.stat("m").st_uid == os.getuid()
print(json.dumps(seen))
`;

Deno.test("the launcher bound into a jail does nothing there its user could not", async () => {
  // The jail's first program is the launcher now, unprivileged too, so code in the jail can run it:
  // its mounts, chown, niceness and kill modes run with the jail's user and no capabilities.
  const isolation = await probeIsolation();
  if (isolation.level !== "bwrap" || !isolation.launcher) {
    return console.warn("skipped: no jail with the compiled launcher");
  }
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-session-" }));
  try {
    const result = await new Sandbox({ isolation }).run({
      argv: ["python3", "-c", LAUNCHER_IN_JAIL, isolation.launcher],
      cwd: base,
      timeoutMs: 20_000,
    });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), {
      "mount-workspace": 1,
      "served mount": 0,
      chown: 125,
      nice: 125,
      "mounts unchanged": true,
      "still mine": true,
    });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
