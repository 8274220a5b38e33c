/**
 * Red-team round 10: the warm interpreter (`src/sandbox/_zygote.ts`), which forks each Python
 * test run's program into the run's jail instead of starting an interpreter there. Every attack
 * runs its program on the warm path (each checks `result.warm`) and asserts the safe behaviour, so
 * a test fails while its hole is open; a cold run is the reference where behaviour is compared.
 *
 * All attack programs go through one `-c` program, DISPATCH, which runs the attack read from
 * stdin: a spawner thread keeps at most four warm interpreters (one per `-c` program), so the
 * tests share one, and the three that need a fresh one, or end or break it on purpose, get their
 * own.
 */
import assert from "node:assert/strict";
import { type RunResult, Sandbox } from "../../src/sandbox/sandbox.ts";
import { pidsWith } from "../_fixtures.ts";
import { coldBox, isolation, skipped, warmBox, withFolders } from "./_warm_fixtures.ts";

/** Runs the program on stdin up to a NUL; what follows is `_s[1]`, the run's own input. */
const DISPATCH =
  `import sys;_s=sys.stdin.buffer.read().split(b"\\0",1)+[b""];exec(compile(_s[0],"<string>","exec"))`;
/** The same, for the tests that end or break their warm interpreter on purpose. */
/** Names the warm interpreter of DISPATCH_KILL (and its bwrap) on their command lines. */
const KILL_TOKEN = `kill-${crypto.randomUUID()}`;
const DISPATCH_KILL = `${DISPATCH}#${KILL_TOKEN}`;
const DISPATCH_STORM = `${DISPATCH}#storm`;
/** The same, for a warm interpreter whose first requests arrive while it starts (in one batch). */
const DISPATCH_SCAN = `${DISPATCH}#scan`;

const encoder = new TextEncoder();

interface Options {
  warm?: boolean;
  code?: string;
  stdinTail?: string;
  timeoutMs?: number;
  sandbox?: Sandbox;
}

/** Run `program` (Python source) in `dir` through DISPATCH, warm unless told. */
function attack(dir: string, program: string, options: Options = {}): Promise<RunResult> {
  const box = options.sandbox ?? (options.warm === false ? coldBox : warmBox);
  return box.run({
    argv: ["python3", "-I", "-B", "-u", "-c", options.code ?? DISPATCH],
    cwd: dir,
    timeoutMs: options.timeoutMs ?? 30_000,
    warm: true,
    stdin: encoder.encode(program + (options.stdinTail ?? "")),
  });
}

function warmOk(result: RunResult): void {
  assert.equal(result.warm, true, `not a warm run: ${JSON.stringify(result)}`);
  assert.equal(result.exitCode, 0, `${result.stdout}\n${result.stderr}`);
}

// deno-lint-ignore no-explicit-any
function json(result: RunResult): any {
  const line = result.stdout.trim().split("\n").at(-1)!;
  return JSON.parse(line);
}

Deno.test("warm: the program holds no privilege and sees only its own jail", async () => {
  if (skipped()) return;
  await withFolders(2, async ([dir, other]) => {
    await Deno.writeTextFile(`${other}/secret`, "another run's workspace");
    await Deno.chmod(`${other}/secret`, 0o644);
    const result = await attack(
      dir,
      `import json, os, ctypes
status = dict(l.split(":\\t", 1) for l in open("/proc/self/status").read().splitlines() if ":\\t" in l)
libc = ctypes.CDLL(None, use_errno=True)
out = {"uid": os.getresuid(), "gid": os.getresgid(), "groups": os.getgroups(),
       "caps": [status[k].strip() for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")],
       "nnp": status["NoNewPrivs"].strip(), "seccomp": status["Seccomp"].strip()}
def tries(f):
    try:
        f()
        return "done"
    except OSError as e:
        return e.errno
out["other"] = tries(lambda: open(${JSON.stringify(`${other}/secret`)}).read())
out["setuid"] = tries(lambda: os.setuid(0))
# setns(2) back out through the jail's own /proc/1 (bwrap, root) and unshare: refused.
out["setns"] = libc.setns(os.open("/proc/1/ns/mnt", os.O_RDONLY) if os.access("/proc/1/ns/mnt", os.R_OK) else -1, 0)
out["unshare"] = libc.unshare(0x00020000)
out["root"] = sorted(os.listdir("/"))
print(json.dumps(out))`,
    );
    warmOk(result);
    const out = json(result);
    assert.notEqual(out.uid[0], 0);
    assert.deepEqual(out.uid, [out.uid[0], out.uid[0], out.uid[0]]);
    assert.deepEqual(out.gid, [out.uid[0], out.uid[0], out.uid[0]]);
    assert.deepEqual(out.groups, []);
    assert.deepEqual(out.caps, Array(5).fill("0000000000000000"));
    assert.equal(out.nnp, "1");
    assert.equal(out.seccomp, "2");
    assert.equal(out.other, 2, "another workspace is visible");
    assert.equal(out.setuid, 1);
    assert.equal(out.setns, -1);
    assert.equal(out.unshare, -1);
    assert.ok(!out.root.includes("home") && !out.root.includes("var"), out.root.join(" "));
  });
});

Deno.test("warm: the program reaches no process outside its jail (warm interpreter, middle, other runs)", async () => {
  if (skipped()) return;
  await withFolders(1, async ([dir]) => {
    const result = await attack(
      dir,
      `import json, os
alive = []
for pid in range(1, int(open("/proc/sys/kernel/pid_max").read())):
    try:
        os.kill(pid, 0)
        alive.append(pid)
    except PermissionError:
        alive.append(pid)
    except ProcessLookupError:
        pass
print(json.dumps({"alive": alive, "me": os.getpid(), "ppid": os.getppid(),
                  "comm": {p: open(f"/proc/{p}/comm").read().strip() for p in alive}}))`,
    );
    warmOk(result);
    const out = json(result);
    // bwrap's init, the holder and the program: nothing of the host's PID namespace.
    assert.deepEqual(out.alive, [1, 2, out.me]);
    assert.deepEqual(out.comm, { 1: "bwrap", 2: "patchgym-hold", [out.me]: "python3" });
  });
});

Deno.test("warm: signalling the holder (a forged status, SIGSTOP, SIGKILL) ends only the run itself, and nothing outlives it", async () => {
  if (skipped()) return;
  const token = `rt10-outlive-${crypto.randomUUID()}`;
  await withFolders(3, async (dirs) => {
    const cases = [
      // A status the program could exit with anyway; the holder then ends before the program.
      ["sigqueue", "libc.sigqueue(2, signal.SIGRTMIN, ctypes.c_long(0)); time.sleep(5)", 0],
      ["sigkill", "os.kill(2, signal.SIGKILL); time.sleep(5)", 137],
      // A stopped holder cannot keep the run past the program's end... until the timeout: as a
      // program that sleeps. It is resumed so the test does not wait for the timeout.
      ["sigstop", "os.kill(2, signal.SIGSTOP); os.kill(2, signal.SIGCONT)", 0],
    ] as const;
    for (const [i, [name, act, code]] of cases.entries()) {
      const result = await attack(
        dirs[i],
        `import ctypes, os, signal, subprocess, sys, time
libc = ctypes.CDLL(None, use_errno=True)
# A daemon in a session of its own, and a child the program's parent (the middle, outside the
# jail's PID namespace) adopts through CLONE_PARENT: both must die with the run.
subprocess.Popen(["python3", "-c", "import time; time.sleep(60)", "${token}"], start_new_session=True)
pid = libc.syscall(56, 0x00008000 | 17, 0, 0, 0, 0)
if pid == 0:
    os.execv("/usr/bin/python3", ["python3", "-c", "import time; time.sleep(60)", "${token}"])
time.sleep(0.2)
${act}`,
      );
      assert.equal(result.warm, true, name);
      assert.equal(result.exitCode, code, `${name}: ${result.stdout}${result.stderr}`);
      assert.deepEqual(await pidsWith(token), [], `${name}: a process outlived its run`);
    }
  });
});

Deno.test("warm: the caps (processes, memory, file size) and rlimits are a cold run's", async () => {
  if (skipped()) return;
  const limits = { processes: 20, memoryBytes: 200 * 1024 ** 2, fileSizeBytes: 1024 ** 2 };
  const program = `import os, time
n = 0
try:
    while True:
        if os.fork() == 0:
            time.sleep(3)
            os._exit(0)
        n += 1
except OSError:
    pass
limits = open("/proc/self/limits").read()
try:
    open("big", "wb").write(b"x" * 2 * 1024 ** 2)
    size = "written"
except OSError as e:
    size = e.errno
print(n, size, limits.replace("\\n", "|"), flush=True)
x = []
while True:
    x.append(bytearray(10 * 1024 ** 2))`;
  await withFolders(2, async ([warmDir, coldDir]) => {
    const warm = await attack(warmDir, program, {
      sandbox: new Sandbox({ isolation, limits }),
    });
    const cold = await attack(coldDir, program, {
      sandbox: new Sandbox({ isolation, limits, warm: false }),
    });
    assert.equal(warm.warm, true);
    assert.equal(cold.warm, false);
    assert.deepEqual(warm.capsHit, { processes: true, memory: true });
    assert.deepEqual(warm.capsHit, cold.capsHit);
    assert.equal(warm.exitCode, cold.exitCode);
    // The holder is one process more in the cgroup and for the uid's count, and is allowed for.
    const [forks, size, warmLimits] = warm.stdout.trim().split(" ", 3);
    const [coldForks, coldSize, coldLimits] = cold.stdout.trim().split(" ", 3);
    assert.equal(forks, coldForks);
    assert.equal(size, coldSize);
    assert.equal(size, "27");
    const strip = (l: string) => l.split("|").filter((x) => !x.startsWith("Max processes"));
    assert.deepEqual(strip(warmLimits), strip(coldLimits));
  });
});

Deno.test("warm: concurrent runs each read their own stdin, write their own streams, start in their own jail", async () => {
  if (skipped()) return;
  const count = 12;
  await withFolders(count, async (dirs) => {
    for (const [i, dir] of dirs.entries()) await Deno.writeTextFile(`${dir}/whoami`, `run ${i}`);
    const program = `import json, os, sys
print(json.dumps({"whoami": open("whoami").read(), "cwd": os.getcwd(), "stdin": _s[1].decode()}))
sys.stderr.write("err " + _s[1].decode())`;
    const results = await Promise.all(
      dirs.map((dir, i) => attack(dir, program, { stdinTail: `\0key ${i}` })),
    );
    for (const [i, result] of results.entries()) {
      warmOk(result);
      const out = JSON.parse(result.stdout.trim().split("\n")[0]);
      assert.equal(out.whoami, `run ${i}`);
      assert.equal(out.cwd, dirs[i]);
      assert.equal(out.stdin, `key ${i}`);
      assert.equal(result.stderr, `err key ${i}`);
    }
  });
});

/** Scans the program's own writable memory for every run's request (cwd and nonce) it can find. */
const MEMORY_SCAN = `import ctypes, json, os, re
found = set()
for line in open("/proc/self/maps"):
    parts = line.split()
    if "rw" not in parts[1] or (len(parts) > 5 and parts[5].startswith("[v")):
        continue
    lo, hi = (int(x, 16) for x in parts[0].split("-"))
    data = ctypes.string_at(lo, hi - lo)
    found.update(m.group(1).decode() for m in re.finditer(rb'"cwd":"(/[^"]+)"', data))
    found.update(m.group(1).decode() for m in re.finditer(rb'"nonce":"([0-9a-f]+)"', data))
own = open("/proc/2/cmdline", "rb").read().split(b"\\0")[-3].decode()[5:]
# Fake holders for every nonce seen: orphans (so children of the jail's init, bwrap's grandchild,
# as the real holder) named as the holder, with the nonce on their command line.
for nonce in found | {own}:
    if not re.fullmatch("[0-9a-f]+", nonce):
        continue
    if os.fork() == 0:
        if os.fork() == 0:
            ctypes.CDLL(None).prctl(15, b"patchgym-hold", 0, 0, 0)
            os.execv("/usr/bin/python3", ["python3", "-c", "import ctypes, time; ctypes.CDLL(None).prctl(15, b'patchgym-hold', 0, 0, 0); time.sleep(3)", "hold:" + nonce, "--"])
        os._exit(0)
print(json.dumps({"cwd": os.getcwd(), "own": own, "found": sorted(found)}))`;

Deno.test("warm: a program finds no other run's request (workspace, nonce) in the memory it inherits", async () => {
  // The hole: the warm interpreter read requests in chunks of up to 64 KiB, so a request forked
  // while the next ones waited in its buffer left them in the middle's memory, and in the
  // program's: other runs' workspace paths, uids, cgroups, nonces. Runs asked of a warm
  // interpreter still starting (its own here) are all in its pipe when it first reads.
  if (skipped()) return;
  const count = 16;
  await withFolders(count, async (dirs) => {
    const results = await Promise.all(
      dirs.map((dir) => attack(dir, MEMORY_SCAN, { code: DISPATCH_SCAN })),
    );
    for (const [i, result] of results.entries()) {
      warmOk(result);
      const out = json(result);
      assert.equal(out.cwd, dirs[i]);
      const others = out.found.filter((x: string) => x !== dirs[i] && x !== out.own);
      assert.deepEqual(others, [], `run ${i} found other runs' requests`);
    }
  });
});

Deno.test("warm: fake holders (with every nonce a program can learn) never take another run's program", async () => {
  if (skipped()) return;
  const count = 8;
  await withFolders(count * 2, async (dirs) => {
    for (const [i, dir] of dirs.entries()) await Deno.writeTextFile(`${dir}/whoami`, `run ${i}`);
    const check = `import json, os
print(json.dumps({"whoami": open("whoami").read(), "holder": open("/proc/2/comm").read()}))`;
    // The first wave plants fake holders and ends; the second starts while they live on in the
    // first wave's jails (they die with those).
    const first = Promise.all(dirs.slice(0, count).map((dir) => attack(dir, MEMORY_SCAN)));
    const second = Promise.all(dirs.slice(count).map((dir) => attack(dir, check)));
    for (const result of await first) warmOk(result);
    for (const [i, result] of (await second).entries()) {
      warmOk(result);
      assert.deepEqual(json(result), { whoami: `run ${count + i}`, holder: "patchgym-hold\n" });
    }
  });
});

Deno.test("warm: sys.orig_argv is the program's own, as in a cold run", async () => {
  // The hole: the prelude cut the warm interpreter's argv at its first ";", which is in the
  // prelude's own text (the line that cuts it), so the program saw the prelude's tail.
  if (skipped()) return;
  await withFolders(2, async ([warmDir, coldDir]) => {
    const program = `import json, sys\nprint(json.dumps([sys.argv, sys.orig_argv]))`;
    const warm = await attack(warmDir, program);
    const cold = await attack(coldDir, program, { warm: false });
    warmOk(warm);
    assert.deepEqual(json(warm), json(cold));
    assert.deepEqual(json(warm)[1], ["python3", "-I", "-B", "-u", "-c", DISPATCH]);
  });
});

Deno.test("warm: the program reads its own /proc entries as a cold one does (dumpable)", async () => {
  // The hole: the uid change without an exec left the program non-dumpable, so /proc/self/ns,
  // environ, personality, auxv... were root's, unlike after a cold run's exec.
  if (skipped()) return;
  await withFolders(2, async ([warmDir, coldDir]) => {
    const program = `import ctypes, json, os
out = {"dumpable": ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)}
for name in ("ns", "environ", "personality", "auxv", "mem", "timerslack_ns"):
    try:
        out[name] = bool(os.listdir("/proc/self/ns") if name == "ns" else open("/proc/self/" + name, "rb").read(1) is not None)
    except OSError as e:
        out[name] = e.errno
print(json.dumps(out))`;
    const warm = await attack(warmDir, program);
    const cold = await attack(coldDir, program, { warm: false });
    warmOk(warm);
    assert.deepEqual(json(warm), json(cold));
    assert.equal(json(warm).dumpable, 1);
  });
});

Deno.test("warm: the exit status and the signal that ended the program are a cold run's", async () => {
  if (skipped()) return;
  const programs = [
    "raise SystemExit(0)",
    "raise SystemExit(3)",
    "import os; os._exit(255)",
    "import os; os._exit(300)",
    "raise ValueError('x')",
    "import os, signal; os.kill(os.getpid(), signal.SIGTERM)",
    "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)",
  ];
  await withFolders(programs.length * 2, async (dirs) => {
    for (const [i, program] of programs.entries()) {
      const warm = await attack(dirs[2 * i], program);
      const cold = await attack(dirs[2 * i + 1], program, { warm: false });
      assert.equal(warm.warm, true);
      assert.deepEqual(
        [warm.exitCode, warm.signal, warm.stderr.split("\n").slice(1).join("\n")],
        [cold.exitCode, cold.signal, cold.stderr.split("\n").slice(1).join("\n")],
        program,
      );
    }
  });
});

Deno.test("warm: a killed warm interpreter leaves the run it started intact, and later runs start cold", async () => {
  if (skipped()) return;
  await withFolders(3, async ([first, during, after]) => {
    // Started once, so its pids can be found: its bwrap's and its own.
    warmOk(await attack(first, "print('up')", { code: DISPATCH_KILL }));
    const zygotes = await pidsWith(KILL_TOKEN);
    assert.ok(zygotes.length > 0, "the warm interpreter of this test");
    const running = attack(
      during,
      "import time; print('before', flush=True); time.sleep(1); print('after')",
      { code: DISPATCH_KILL },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const pid of zygotes) Deno.kill(pid, "SIGKILL");
    const result = await running;
    warmOk(result);
    assert.equal(result.stdout, "before\nafter\n");
    const later = await attack(after, "print('cold')", { code: DISPATCH_KILL });
    assert.equal(later.warm, false);
    assert.equal(later.stdout, "cold\n");
  });
});

Deno.test("warm: runs killed at their timeout while their jail is entered do not turn warm runs off for the thread", async () => {
  // The hole: a run killed (at its timeout) between the holder being found and the fork into its
  // PID namespace made the middle answer `fail` (ENOMEM: the namespace was dying, or ESRCH),
  // which starts every later run of the spawner thread cold.
  if (skipped()) return;
  const rounds = 40, width = 4;
  await withFolders(rounds * width + 1, async (dirs) => {
    for (let round = 0; round < rounds; round++) {
      await Promise.all(Array.from({ length: width }, (_, i) => {
        const n = round * width + i;
        return attack(dirs[n], "pass", { code: DISPATCH_STORM, timeoutMs: 4 + (n * 7) % 60 });
      }));
    }
    const later = await attack(dirs.at(-1)!, "print('still warm')", { code: DISPATCH_STORM });
    assert.equal(later.warm, true, "warm runs were turned off");
    assert.equal(later.stdout, "still warm\n");
  });
});

Deno.test("warm: the interpreter's start-up state (UTF-8 mode, locale, sys.path, site) is a cold run's", async () => {
  // Held since the warm interpreter starts in the jail's own mounts: started with the host's files
  // it had the host's C.UTF-8 locale (the jail has none, so a cold run falls back to C and turns
  // on UTF-8 mode), the host's site folders (/usr/local/lib/python3.X/dist-packages, absent in
  // the jail) and sitecustomize.
  if (skipped()) return;
  await withFolders(2, async ([warmDir, coldDir]) => {
    const program = `import json, locale, sys
print(json.dumps({"utf8": sys.flags.utf8_mode, "ctype": locale.setlocale(locale.LC_CTYPE),
                  "preferred": locale.getpreferredencoding(False), "path": sys.path,
                  "site": sorted(m for m in ("sitecustomize", "usercustomize") if m in sys.modules)}))`;
    const warm = await attack(warmDir, program);
    const cold = await attack(coldDir, program, { warm: false });
    warmOk(warm);
    assert.deepEqual(json(warm), json(cold));
  });
});
