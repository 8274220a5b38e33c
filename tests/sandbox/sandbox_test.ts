import { createHash } from "node:crypto";
import assert from "node:assert/strict";
import { concat } from "../../src/bytes.ts";
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { SandboxError } from "../../src/errors.ts";
import { ALLOWED_PROGRAMS, isAllowedProgram } from "../../src/sandbox/programs.ts";
import {
  type IsolationInfo,
  probeIsolation,
  type RunResult,
  Sandbox,
} from "../../src/sandbox/sandbox.ts";
import { FORK_BOMB, pidsWith, testSandbox, withWorkspace } from "../_fixtures.ts";

/**
 * A temp folder outside /tmp: under bwrap /tmp is a private tmpfs, so a folder there is invisible
 * anyway and would prove nothing about read-only binds or `hide`.
 */
async function withOutsideDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const parent = ["/var/tmp", Deno.cwd()].find((p) => existsSync(p) && !p.startsWith("/tmp"))!;
  const dir = realpathSync(await Deno.makeTempDir({ dir: parent, prefix: ".patchgym-outside-" }));
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Log why a test's assertions were skipped on this machine. */
function skip(reason: string): void {
  console.warn(`skipped: ${reason}`);
}

function python(script: string, ...args: string[]): string[] {
  return ["python3", "-c", script, ...args];
}

/** Whether `pid` is a live process (a zombie awaiting its reaper counts as dead). */
async function alive(pid: number): Promise<boolean> {
  const { success, stdout } = await new Deno.Command("ps", {
    args: ["-o", "stat=", "-p", String(pid)],
    stdout: "piped",
  }).output();
  return success && !new TextDecoder().decode(stdout).trim().startsWith("Z");
}

async function aliveOf(pids: number[]): Promise<number[]> {
  const live: number[] = [];
  for (const pid of pids) if (await alive(pid)) live.push(pid);
  return live;
}

async function waitFor(check: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

/**
 * Forks a grandchild that re-executes itself with `<token>-grandchild` in its command line (so
 * the host can find it) and writes its own pid to `grandchild.pid`; both ignore SIGTERM. The
 * parent then sleeps ("wait") or exits once the test creates `go` ("exit").
 */
const FORKING = `
import os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
if os.fork() == 0:
    if sys.argv[2] == "setsid":
        os.setsid()
    os.execv(sys.executable, [sys.executable, "-c", sys.argv[4], sys.argv[3] + "-grandchild"])
if sys.argv[1] == "wait":
    while True:
        time.sleep(1)
# Exit only once the test has found the grandchild, leaving it behind.
while not os.path.exists("go"):
    time.sleep(0.01)
print("parent exits")
`;

const GRANDCHILD = `
import os, signal, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
with open("grandchild.pid.tmp", "w") as f:
    f.write(str(os.getpid()))
os.rename("grandchild.pid.tmp", "grandchild.pid")
while True:
    time.sleep(1)
`;

/**
 * Wait for a sandboxed run that must end by itself (killed at its timeout, or exited). A broken
 * kill would leave it waiting forever on a process that never exits: fail instead, after a bound
 * far above any timeout used here, and SIGKILL the run's processes this test started (`pids`).
 */
async function settled<T>(
  running: Promise<T>,
  pids: () => number[] | Promise<number[]>,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stuck = new Promise<never>((_, reject) => {
    timer = setTimeout(async () => {
      for (const pid of await pids()) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      reject(new assert.AssertionError({ message: "the run was never stopped: the kill broke" }));
    }, HANG_MS);
  });
  try {
    return await Promise.race([running, stuck]);
  } finally {
    clearTimeout(timer);
  }
}

/** How long a run that should have been killed may go on before the test fails instead of hanging. */
const HANG_MS = 60_000;

/**
 * Run FORKING under `sandbox`, find the grandchild's host pid while the run is under way, and
 * return it with every process of the run that was seen. A run that times out before the
 * grandchild could be found (a loaded machine) is run again with a longer timeout, so the test
 * does not depend on how fast the machine starts processes.
 */
async function runForking(sandbox: Sandbox, ws: string, parent: "wait" | "exit", session = "same") {
  for (const timeoutMs of [1500, 5000, 15000]) {
    const token = `patchgym-token-${crypto.randomUUID()}`;
    let ended = false;
    const running = sandbox.run({
      argv: python(FORKING, parent, session, token, GRANDCHILD),
      cwd: ws,
      timeoutMs,
    }).finally(() => ended = true);
    let grandchild: number | undefined;
    let seen: number[] = [];
    await waitFor(async () => {
      if (ended) return true;
      if (!existsSync(join(ws, "grandchild.pid"))) return false;
      seen = await pidsWith(token);
      [grandchild] = await pidsWith(`${token}-grandchild`);
      return grandchild !== undefined;
    }, timeoutMs + 5000);
    writeFileSync(join(ws, "go"), "");
    const result = await settled(running, () => seen);
    if (grandchild === undefined && result.timedOut) {
      for (const name of ["go", "grandchild.pid", "grandchild.pid.tmp"]) {
        rmSync(join(ws, name), { force: true });
      }
      continue;
    }
    if (sandbox.isolation.level === "process" && grandchild !== undefined) {
      // Without a PID namespace the pid the grandchild wrote is its host pid.
      assert.equal(Number(readFileSync(join(ws, "grandchild.pid"), "utf8")), grandchild);
    }
    return { result, grandchild, seen };
  }
  throw new Error("the run timed out before its grandchild could be found, three times");
}

Deno.test("Sandbox.run() kills a grandchild that ignores SIGTERM on timeout", async () => {
  const sandbox = await testSandbox();
  await withWorkspace(async (ws) => {
    const { result, grandchild, seen } = await runForking(sandbox, ws, "wait");
    assert.ok(grandchild !== undefined, "the grandchild's host pid was not found while it ran");
    assert.equal(result.timedOut, true);
    assert.ok(
      await waitFor(async () => !(await alive(grandchild!)), 1000),
      `grandchild ${grandchild} survived`,
    );
    // A killed process can still be finishing its exit (its namespaces going) on a loaded machine.
    await waitFor(async () => (await aliveOf(seen)).length === 0, 5000);
    assert.deepEqual(await aliveOf(seen), [], "some process of the run survived");
  });
});

Deno.test("Sandbox.run() kills a grandchild left behind when the child exits", async () => {
  const sandbox = await testSandbox();
  await withWorkspace(async (ws) => {
    const { result, grandchild, seen } = await runForking(sandbox, ws, "exit");
    assert.ok(grandchild !== undefined, "the grandchild's host pid was not found while it ran");
    assert.equal(result.timedOut, false);
    assert.equal(result.exitCode, 0);
    assert.equal(result.stdout, "parent exits\n");
    assert.ok(
      await waitFor(async () => !(await alive(grandchild!)), 1000),
      `grandchild ${grandchild} survived`,
    );
    // A killed process can still be finishing its exit (its namespaces going) on a loaded machine.
    await waitFor(async () => (await aliveOf(seen)).length === 0, 5000);
    assert.deepEqual(await aliveOf(seen), [], "some process of the run survived");
  });
});

Deno.test("Sandbox.run() under bwrap also kills a grandchild that left the process group", async () => {
  const sandbox = await testSandbox();
  if (sandbox.isolation.level !== "bwrap") {
    // Without a PID namespace a setsid() grandchild escapes the process-group kill.
    return skip(`isolation is "${sandbox.isolation.level}", not bwrap`);
  }
  await withWorkspace(async (ws) => {
    const { result, grandchild } = await runForking(sandbox, ws, "wait", "setsid");
    assert.ok(grandchild !== undefined, "the grandchild's host pid was not found while it ran");
    assert.equal(result.timedOut, true);
    assert.ok(
      await waitFor(async () => !(await alive(grandchild!)), 1000),
      `grandchild ${grandchild} survived`,
    );
  });
});

Deno.test("Sandbox.run() caps an output flood, keeping head, tail and a marker", async () => {
  const sandbox = await testSandbox();
  await withWorkspace(async (ws) => {
    const size = 5 * 1024 * 1024;
    const result = await sandbox.run({
      argv: python(
        `import sys\nsys.stdout.write("HEAD-" + "x" * ${size} + "-TAIL")\nsys.stderr.write("e" * 100)`,
      ),
      cwd: ws,
      timeoutMs: 10_000,
      maxOutputBytes: 4096,
    });
    assert.equal(result.exitCode, 0);
    assert.equal(result.timedOut, false);
    assert.equal(result.truncated, true);
    assert.equal(result.outputBytes, size + 10 + 100);
    assert.ok(result.stdout.startsWith("HEAD-xxx"));
    assert.ok(result.stdout.endsWith("xxx-TAIL"));
    const omitted = size + 10 - 4096;
    assert.ok(
      result.stdout.includes(
        `[... ${omitted} bytes omitted: output capped at 4096 bytes, first and last parts kept ...]`,
      ),
      result.stdout.slice(2000, 2200),
    );
    assert.ok(result.stdout.length < 4096 + 200);
    assert.equal(result.stderr, "e".repeat(100));
  });
});

Deno.test("Sandbox.run() keeps output at exactly the cap whole", async () => {
  const sandbox = await testSandbox();
  await withWorkspace(async (ws) => {
    const result = await sandbox.run({
      argv: python(`import sys\nsys.stdout.write("a" * 50 + "b" * 50)`),
      cwd: ws,
      timeoutMs: 10_000,
      maxOutputBytes: 100,
    });
    assert.equal(result.truncated, false);
    assert.equal(result.stdout, "a".repeat(50) + "b".repeat(50));
  });
});

Deno.test("Sandbox.run() does not pass the parent's environment to the child", async () => {
  const sandbox = await testSandbox();
  Deno.env.set("PATCHGYM_TEST_SECRET", "hunter2");
  try {
    await withWorkspace(async (ws) => {
      const result = await sandbox.run({
        argv: python(
          `import os, json\nprint(json.dumps(dict(os.environ)))`,
        ),
        cwd: ws,
        timeoutMs: 10_000,
        env: { EXTRA_VAR: "given" },
      });
      assert.equal(result.exitCode, 0, result.stderr);
      const env = JSON.parse(result.stdout);
      assert.equal(env.PATCHGYM_TEST_SECRET, undefined);
      assert.ok(!result.stdout.includes("hunter2"));
      assert.equal(env.EXTRA_VAR, "given");
      assert.equal(env.PYTHONDONTWRITEBYTECODE, "1");
      assert.ok(env.PATH.startsWith("/usr/local/bin:/usr/bin:/bin:"), env.PATH);
      assert.equal(env.HOME, sandbox.isolation.level === "bwrap" ? "/tmp" : ws);
    });
  } finally {
    Deno.env.delete("PATCHGYM_TEST_SECRET");
  }
});

Deno.test("Sandbox.run() under bwrap blocks network access to the host's loopback", async () => {
  const sandbox = await testSandbox();
  if (sandbox.isolation.level !== "bwrap") {
    return skip(`isolation is "${sandbox.isolation.level}", not bwrap; children have network`);
  }
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const { port } = listener.addr as Deno.NetAddr;
    await withWorkspace(async (ws) => {
      const result = await sandbox.run({
        argv: python(
          `import socket\ntry:\n    socket.create_connection(("127.0.0.1", ${port}), timeout=3)\n    print("connected")\nexcept OSError as e:\n    print("blocked", e)`,
        ),
        cwd: ws,
        timeoutMs: 10_000,
      });
      assert.match(result.stdout, /^blocked/, result.stdout + result.stderr);
    });
  } finally {
    listener.close();
  }
});

Deno.test("Sandbox.run() refuses a program that is not allowlisted", async () => {
  const sandbox = await testSandbox();
  await withWorkspace(async (ws) => {
    for (const argv of [["bash", "-c", "echo hi"], ["/usr/bin/python3", "-c", "1"], ["sh"], []]) {
      await assert.rejects(
        sandbox.run({ argv, cwd: ws, timeoutMs: 1000 }),
        (error: unknown) => {
          assert.ok(error instanceof SandboxError);
          assert.equal(error.code, "sandbox_failed");
          assert.match(error.message, /^Cannot run ".*": not an allowlisted program$/);
          return true;
        },
      );
    }
  });
});

Deno.test("Sandbox.run() throws SandboxError when the child cannot start", async () => {
  const sandbox = await testSandbox();
  await withWorkspace(async (ws) => {
    await assert.rejects(
      sandbox.run({ argv: ["true"], cwd: join(ws, "missing"), timeoutMs: 1000 }),
      SandboxError,
    );
  });
});

Deno.test("Sandbox.run() reports a non-zero exit as data", async () => {
  const sandbox = await testSandbox();
  await withWorkspace(async (ws) => {
    const result = await sandbox.run({
      argv: python("import sys; sys.exit(3)"),
      cwd: ws,
      timeoutMs: 10_000,
    });
    assert.equal(result.exitCode, 3);
    assert.equal(result.timedOut, false);
    assert.deepEqual(result.argv, python("import sys; sys.exit(3)"));
  });
});

Deno.test("Sandbox.run() under bwrap lets the child write the workspace only", async () => {
  const sandbox = await testSandbox();
  if (sandbox.isolation.level !== "bwrap") {
    return skip(`isolation is "${sandbox.isolation.level}", not bwrap; no read-only root`);
  }
  await withOutsideDir(async (outside) => {
    writeFileSync(join(outside, "keep.txt"), "original");
    await withWorkspace(async (ws, base) => {
      writeFileSync(join(base, "sibling.txt"), "original");
      const script = `
import sys
for path in sys.argv[1:]:
    try:
        with open(path, "w") as f:
            f.write("changed")
        print(path, "written")
    except OSError as e:
        print(path, "refused", e.errno)
`;
      const targets = [
        join(ws, "made.txt"),
        join(outside, "keep.txt"),
        join(outside, "new.txt"),
        join(base, "sibling.txt"),
        "/tmp/patchgym-private.txt",
      ];
      const result = await sandbox.run({
        argv: python(script, ...targets),
        cwd: ws,
        timeoutMs: 10_000,
      });
      const lines = result.stdout.trim().split("\n");
      assert.equal(lines[0], `${targets[0]} written`);
      // Outside the workspace a path is absent (ENOENT, not in the mount allowlist) or read-only.
      assert.match(lines[1], / refused (2|30)$/, "refused outside the workspace");
      assert.match(lines[2], / refused (2|30)$/);
      assert.equal(readFileSync(join(ws, "made.txt"), "utf8"), "changed");
      assert.equal(readFileSync(join(outside, "keep.txt"), "utf8"), "original");
      assert.equal(existsSync(join(outside, "new.txt")), false);
      // The sibling is in /tmp or read-only: either way the host file is untouched.
      assert.equal(readFileSync(join(base, "sibling.txt"), "utf8"), "original");
      // /tmp inside the jail is private: the write lands in a tmpfs, not on the host.
      assert.equal(lines[4], `${targets[4]} written`);
      assert.equal(existsSync("/tmp/patchgym-private.txt"), false);
    });
  });
});

Deno.test("Sandbox.run() under bwrap shows only the runtime and the workspace", async () => {
  const isolation = await probeIsolation();
  if (isolation.level !== "bwrap") {
    return skip(`isolation is "${isolation.level}", not bwrap; the mount allowlist needs bwrap`);
  }
  await withOutsideDir(async (secretDir) => {
    writeFileSync(join(secretDir, "answer.txt"), "42");
    const home = Deno.env.get("HOME") ?? "/root";
    // The checkout (its .git holds every hidden test and reference patch), the task store, runs,
    // HOME, host secrets and unrelated tools must not exist inside; the workspace must.
    const hidden = [
      join(secretDir, "answer.txt"),
      join(Deno.cwd(), ".git"),
      join(Deno.cwd(), "tasks"),
      join(Deno.cwd(), "deno.json"),
      join(home, ".bashrc"),
      home,
      "/etc/shadow",
      "/etc/hostname",
      "/usr/local/bin",
      "/usr/lib/git-core",
      "/var",
    ];
    const script = `
import os, sys
for path in sys.argv[1:]:
    print(path, os.path.exists(path))
`;
    await withWorkspace(async (ws) => {
      writeFileSync(join(ws, "mine.txt"), "");
      const result = await new Sandbox({ isolation }).run({
        argv: python(script, join(ws, "mine.txt"), ...hidden),
        cwd: ws,
        timeoutMs: 10_000,
      });
      assert.equal(result.exitCode, 0, result.stderr);
      const seen = result.stdout.trim().split("\n");
      assert.equal(seen[0], `${join(ws, "mine.txt")} True`);
      // HOME may be an empty mount point when the deno executable lives below it, and so may the
      // folders above the compiled launcher (the jail's first program), which hold nothing else.
      const launcher = isolation.launcher ?? null;
      const above = (path: string) => path === home || (launcher?.startsWith(`${path}/`) ?? false);
      const visible = seen.slice(1).filter((line) => line.endsWith(" True"));
      assert.deepEqual(visible.filter((line) => !above(line.slice(0, -" True".length))), []);
      const listing = await new Sandbox({ isolation }).run({
        argv: python("import os, sys\nprint(os.listdir(sys.argv[1]))", home),
        cwd: ws,
        timeoutMs: 10_000,
      });
      assert.ok(!listing.stdout.includes(".bashrc"), listing.stdout);
      if (launcher) {
        const folder = await new Sandbox({ isolation }).run({
          argv: python("import os, sys\nprint(os.listdir(sys.argv[1]))", dirname(launcher)),
          cwd: ws,
          timeoutMs: 10_000,
        });
        assert.equal(folder.stdout.trim(), `['${basename(launcher)}']`, folder.stderr);
      }
    });
  });
});

// Attack: bwrap follows symlinks in a bind's path, on the host for its source and inside the jail
// for its destination, so a read-only bind of a file code under test had replaced with a relative
// symlink up to "/" mounted the host's root over the jail's.
Deno.test("Sandbox.run() under bwrap refuses to bind a path that leads through a symlink", async () => {
  const sandbox = await testSandbox();
  if (sandbox.isolation.level !== "bwrap") {
    return skip(`isolation is "${sandbox.isolation.level}", not bwrap; nothing is bound`);
  }
  await withWorkspace(async (ws, base) => {
    mkdirSync(join(ws, "real"));
    writeFileSync(join(base, "outside.txt"), "secret");
    const up = "../".repeat(ws.split("/").length);
    Deno.symlinkSync(`${up}tmp/..`, join(ws, "to-root"));
    Deno.symlinkSync("../outside.txt", join(ws, "to-outside"));
    Deno.symlinkSync("real", join(ws, "to-real"));
    const places = [
      { readOnly: [join(ws, "to-root")] },
      { readOnly: [join(ws, "to-outside")] },
      { readOnly: [join(ws, "to-real")] },
      { writable: [join(ws, "to-real")] },
      { readOnly: [join(ws, "missing")] },
    ];
    for (const place of places) {
      await assert.rejects(
        sandbox.run({ argv: ["ls", "/"], cwd: ws, timeoutMs: 10_000, ...place }),
        (error: Error) => {
          assert.ok(error instanceof SandboxError, String(error));
          assert.match(error.message, /^Cannot bind ".*" into the jail: /);
          return true;
        },
      );
    }
    await assert.rejects(
      sandbox.run({ argv: ["ls", "/"], cwd: join(ws, "to-real"), timeoutMs: 10_000 }),
      SandboxError,
    );
    const plain = await sandbox.run({
      argv: ["ls", "/"],
      cwd: ws,
      timeoutMs: 10_000,
      readOnly: [join(ws, "real")],
    });
    assert.equal(plain.exitCode, 0, plain.stderr);
    assert.ok(!plain.stdout.includes("work"), plain.stdout);
  });
});

// Attack kept as a regression test: a hard link in the workspace to a file of the jail's runtime
// would survive the run and be read by the tools as the agent's own file. Every other mount is
// another mount point, so link() fails with EXDEV.
Deno.test("Sandbox.run() under bwrap cannot hard-link a file from outside the workspace", async () => {
  const sandbox = await testSandbox();
  if (sandbox.isolation.level !== "bwrap") {
    return skip(`isolation is "${sandbox.isolation.level}", not bwrap`);
  }
  await withWorkspace(async (ws) => {
    const script = `import os
for i, src in enumerate(["/usr/bin/python3", "/etc/passwd", "/etc/ld.so.cache", "/proc/1/environ"]):
    try:
        os.link(src, f"l{i}")
        print("linked", src)
    except OSError as e:
        print("refused", src, e.errno)
`;
    const result = await sandbox.run({ argv: python(script), cwd: ws, timeoutMs: 10_000 });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.deepEqual(
      result.stdout.trim().split("\n").map((line) => line.split(" ")[0]),
      ["refused", "refused", "refused", "refused"],
      result.stdout,
    );
    assert.deepEqual([...Deno.readDirSync(ws)], []);
  });
});

Deno.test("Sandbox.run() under bwrap runs children as a non-root uid without capabilities", async () => {
  const isolation = await probeIsolation();
  if (isolation.level !== "bwrap") {
    return skip(`isolation is "${isolation.level}", not bwrap`);
  }
  await withWorkspace(async (ws) => {
    const result = await new Sandbox({ isolation }).run({
      argv: python(
        "import os\nprint(os.getuid(), os.geteuid(), os.getgid())\nprint([l for l in open('/proc/self/status') if l.startswith('CapEff')][0].split()[1])\nopen('w.txt', 'w').write('ok')",
      ),
      cwd: ws,
      timeoutMs: 10_000,
    });
    assert.equal(result.exitCode, 0, result.stderr);
    const [ids, caps] = result.stdout.trim().split("\n");
    assert.notEqual(ids.split(" ")[0], "0");
    assert.equal(new Set(ids.split(" ")).has("0"), false, ids);
    assert.equal(Number.parseInt(caps, 16), 0, `capabilities ${caps}`);
    // The workspace stays writable for the unprivileged child.
    assert.equal(readFileSync(join(ws, "w.txt"), "utf8"), "ok");
  });
});

/** The isolation levels to try a cgroup defense under: this machine's, and without the jail. */
async function cgroupLevels(): Promise<IsolationInfo[]> {
  const isolation = await probeIsolation();
  if (!isolation.cgroup) return [];
  const levels = [isolation];
  if (isolation.level === "bwrap") {
    // As root, running without the jail takes the loud flag (children still drop to a sandbox uid).
    levels.push({
      ...isolation,
      level: "process",
      mounts: null,
      seccomp: null,
      unjailedRoot: true,
    });
  }
  return levels;
}

/**
 * The run's cgroup folders still on disk. By name: test files run in parallel in one process, so
 * other files' sandboxes share this pid.
 */
async function leftoverCgroups(result: RunResult): Promise<string> {
  assert.ok(result.cgroup, "the run had a cgroup");
  const { stdout } = await new Deno.Command("find", {
    args: ["/sys/fs/cgroup", "-maxdepth", "5", "-name", result.cgroup],
    stdout: "piped",
    stderr: "null",
  }).output();
  return new TextDecoder().decode(stdout).trim();
}

Deno.test("Sandbox.run() contains a fork bomb in its sandbox's process cap", async () => {
  const levels = await cgroupLevels();
  if (levels.length === 0) return skip("no per-sandbox cgroups here");
  for (const isolation of levels) {
    const sandbox = new Sandbox({ isolation, limits: { processes: 16 } });
    await withWorkspace(async (ws) => {
      const token = `patchgym-bomb-${crypto.randomUUID()}`;
      const result = await settled(
        sandbox.run({ argv: python(FORK_BOMB(token)), cwd: ws, timeoutMs: 1500 }),
        () => pidsWith(token),
      );
      assert.equal(result.timedOut, true, isolation.level);
      assert.match(result.stdout, /fork refused/, isolation.level);
      assert.equal(result.capsHit.processes, true);
      assert.match(result.stderr, /process cap of 16 was reached/);
      assert.deepEqual(await aliveOf(await pidsWith(token)), [], "a bomb process survived");
      assert.equal(await leftoverCgroups(result), "");
      // The host still forks.
      assert.equal((await new Deno.Command("true").output()).success, true);
    });
  }
});

Deno.test("Sandbox.run() kills a process that left the session along with its sandbox", async () => {
  // Without a jail a setsid() grandchild escapes the process-group kill, not the cgroup sweep.
  const levels = await cgroupLevels();
  if (levels.length === 0) return skip("no per-sandbox cgroups here");
  for (const isolation of levels) {
    await withWorkspace(async (ws) => {
      const { result, grandchild } = await runForking(
        new Sandbox({ isolation }),
        ws,
        "exit",
        "setsid",
      );
      assert.ok(grandchild !== undefined, "the grandchild's host pid was not found while it ran");
      assert.equal(result.exitCode, 0);
      assert.equal(await alive(grandchild!), false, `grandchild ${grandchild} survived`);
      assert.equal(await leftoverCgroups(result), "");
    });
  }
});

Deno.test("Sandbox.run() kills a child over its sandbox's memory cap", async () => {
  const levels = await cgroupLevels();
  if (!levels[0]?.cgroup?.memory) return skip("no per-sandbox memory cgroup here");
  for (const isolation of levels) {
    const sandbox = new Sandbox({ isolation, limits: { memoryBytes: 64 * 1024 ** 2 } });
    await withWorkspace(async (ws) => {
      const result = await sandbox.run({
        argv: python("b = bytearray(256 * 1024 * 1024)\nprint('allocated')"),
        cwd: ws,
        timeoutMs: 10_000,
      });
      assert.notEqual(result.exitCode, 0, isolation.level);
      assert.equal(result.stdout, "");
      assert.equal(result.capsHit.memory, true);
      assert.match(result.stderr, /memory cap of 64 MiB was reached/);
      assert.equal(await leftoverCgroups(result), "");
      // Below the cap the same child runs.
      const small = await sandbox.run({
        argv: python("b = bytearray(16 * 1024 * 1024)\nprint('allocated')"),
        cwd: ws,
        timeoutMs: 10_000,
      });
      assert.equal(small.stdout, "allocated\n", small.stderr);
      assert.equal(small.capsHit.memory, false);
    });
  }
});

Deno.test("Sandbox.run() closes stdin and runs in the workspace", async () => {
  const sandbox = await testSandbox();
  await withWorkspace(async (ws) => {
    writeFileSync(join(ws, "here.txt"), "");
    const result = await sandbox.run({
      argv: python(
        "import os, sys\nprint(repr(sys.stdin.read()))\nprint(os.getcwd())\nprint(os.listdir('.'))",
      ),
      cwd: ws,
      timeoutMs: 10_000,
    });
    assert.equal(result.stdout, `''\n${ws}\n['here.txt']\n`);
    const pwd = await sandbox.run({ argv: ["pwd"], cwd: ws, timeoutMs: 10_000 });
    assert.equal(pwd.stdout.trim(), ws);
  });
});

Deno.test("Sandbox.run() writes stdin given in parts in order, and leaves the parts as they were", async () => {
  const sandbox = await testSandbox();
  await withWorkspace(async (ws) => {
    // Larger than a pipe in all, as the reporter's code and source are.
    const parts = [new Uint8Array([1, 2]), new Uint8Array(100_000).fill(7), new Uint8Array([3])];
    const code = "import hashlib, sys\ndata = sys.stdin.buffer.read()\n" +
      "print(len(data), data[:3].hex(), data[-2:].hex(), hashlib.sha256(data).hexdigest())";
    const hex = createHash("sha256").update(concat(parts)).digest("hex");
    for (let round = 0; round < 2; round++) {
      const result = await sandbox.run({
        argv: python(code),
        cwd: ws,
        timeoutMs: 10_000,
        stdin: parts,
      });
      assert.equal(result.stdout, `100003 010207 0703 ${hex}\n`, result.stderr);
    }
    assert.deepEqual(parts.map((p) => [p.length, p[0]]), [[2, 1], [100_000, 7], [1, 3]]);
  });
});

Deno.test("Sandbox.run() applies rlimits", async () => {
  const isolation = await probeIsolation();
  if (!isolation.rlimits) {
    return skip("rlimits are not usable here");
  }
  const sandbox = new Sandbox({
    isolation,
    limits: { openFiles: 77, cpuSeconds: 30, fileSizeBytes: 1_000_000, processes: 99 },
  });
  await withWorkspace(async (ws) => {
    const result = await sandbox.run({
      argv: python(
        "import resource as r\nfor k in ('NOFILE', 'CPU', 'FSIZE', 'AS', 'NPROC'):\n    print(k, *r.getrlimit(getattr(r, 'RLIMIT_' + k)))",
      ),
      cwd: ws,
      timeoutMs: 4000,
    });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.deepEqual(result.stdout.trim().split("\n"), [
      "NOFILE 77 77",
      // CPU seconds follow the timeout (4 s + 1) when that is below the limit.
      "CPU 5 5",
      // Rounded down to whole 512-byte blocks (the unit of the launcher's ulimit).
      "FSIZE 999936 999936",
      `AS ${4 * 1024 ** 3} ${4 * 1024 ** 3}`,
      // As root with cgroups the per-uid count is a backstop above the cgroup's cap.
      isolation.users && isolation.cgroup ? "NPROC 115 115" : "NPROC 99 99",
    ]);
    const big = await sandbox.run({
      argv: python("open('big', 'wb').write(b'x' * 2_000_000)"),
      cwd: ws,
      timeoutMs: 4000,
    });
    assert.notEqual(big.exitCode, 0);
  });
});

Deno.test("Sandbox.run() under bwrap counts a jail's process cap against the jail, not the user's other processes", async () => {
  const isolation = await probeIsolation();
  if (isolation.level !== "bwrap" || !isolation.rlimits || !isolation.launcher) {
    return skip("needs bwrap, rlimits and the compiled launcher");
  }
  const processes = 24;
  const sandbox = new Sandbox({ isolation, limits: { processes } });
  // This user runs more threads than one jail may have processes, elsewhere (a trainer's threads).
  const busy = new Deno.Command("python3", {
    args: [
      "-c",
      `import sys, threading\nfor _ in range(${
        processes + 8
      }): threading.Thread(target=sys.stdin.read, daemon=True).start()\nprint("ready", flush=True)\nsys.stdin.read()`,
    ],
    stdin: "piped",
    stdout: "piped",
  }).spawn();
  const writer = busy.stdin.getWriter();
  try {
    const reader = busy.stdout.getReader();
    const { value } = await reader.read();
    reader.releaseLock();
    assert.match(new TextDecoder().decode(value), /ready/);
    await withWorkspace(async (ws) => {
      // Without root a jail is a user namespace of its own, whose processes are what its cap
      // counts: set before bwrap, the cap counted the user's threads and no jail could start.
      const forks = await sandbox.run({
        argv: python(
          "import os\nkids = [os.fork() or os._exit(0) for _ in range(8)]\nfor k in kids: os.waitpid(k, 0)\nprint('forked', len(kids))",
        ),
        cwd: ws,
        timeoutMs: 10_000,
      });
      assert.equal(forks.exitCode, 0, forks.stderr);
      assert.equal(forks.stdout.trim(), "forked 8");
      // And the cap still holds inside the jail.
      const token = `patchgym-bomb-${crypto.randomUUID()}`;
      const bomb = await settled(
        sandbox.run({ argv: python(FORK_BOMB(token)), cwd: ws, timeoutMs: 1500 }),
        () => pidsWith(token),
      );
      assert.match(bomb.stdout, /fork refused/, bomb.stderr);
      assert.deepEqual(await aliveOf(await pidsWith(token)), [], "a bomb process survived");
    });
  } finally {
    await writer.close().catch(() => {});
    await busy.status;
    await busy.stdout.cancel().catch(() => {});
  }
});

Deno.test("isAllowedProgram() accepts bare allowlisted names only", () => {
  assert.equal(isAllowedProgram("python3"), true);
  assert.equal(isAllowedProgram("deno"), true);
  assert.equal(isAllowedProgram("/usr/bin/python3"), false);
  assert.equal(isAllowedProgram("bash"), false);
  assert.equal(isAllowedProgram("sh"), false);
  assert.equal(isAllowedProgram(""), false);
  for (const shell of ["sh", "bash", "env", "xargs", "find", "bwrap", "prlimit"]) {
    assert.equal(ALLOWED_PROGRAMS.has(shell), false, shell);
  }
});
