/**
 * A process for jail_session_test.ts, the orchestrator of its attacks: `tty` runs a jailed program
 * that tries to reach this process's controlling terminal (the test gives it one); `kill0` runs a
 * jailed program that signals its own process group beside a sibling jail. It prints one line,
 * `RESULT {json}`, with what it saw; being killed is an answer too.
 */
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";

const mode = Deno.args[0];
const isolation = await probeIsolation();
if (isolation.level !== "bwrap") {
  console.log(`RESULT ${JSON.stringify({ skipped: `no bwrap here (${isolation.reason})` })}`);
  Deno.exit(0);
}
const sandbox = new Sandbox({ isolation });
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
print(json.dumps(seen))
`;

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
    const run = (name: string, script: string) =>
      sandbox.run({ argv: ["python3", "-c", script], cwd: workspace(name), timeoutMs: 20_000 });
    const sibling = run("sibling", "import time\ntime.sleep(2)\nprint('sibling-ok')");
    // Let the sibling start first, so a signal to a group they shared would reach it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const attacker = await run(
      "attacker",
      "import os, signal\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\nos.kill(0, signal.SIGTERM)\nprint('sent')",
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
        sibling: { code: other.exitCode, signal: other.signal, out: other.stdout },
      })
    }`);
  } else {
    throw new Error(`unknown mode "${mode}"`);
  }
} finally {
  await Deno.remove(base, { recursive: true });
}
