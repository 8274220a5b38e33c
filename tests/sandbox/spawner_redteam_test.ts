/**
 * Red team of the spawner thread (src/sandbox/_spawner.ts) and the launcher's `serve` process
 * (src/sandbox/_helper.ts, `serve` in launcher/patchgym_launch.c), as root and as an unprivileged
 * user: requests bent by their arguments (a NUL, a line longer than any request, a folder swapped
 * for a symlink while the mount is checked), a serve process killed under the orchestrator,
 * answers of concurrent requests kept apart, and the server's pipes out of a child's reach.
 */
import assert from "node:assert/strict";
import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { HelperProcess } from "../../src/sandbox/_helper.ts";
import { spawnerFor } from "../../src/sandbox/_spawner.ts";
import { testSandbox } from "../_fixtures.ts";
import {
  compiledLauncher,
  mounted,
  rootLauncher,
  servePids,
  skip,
  withDir,
} from "./_launcher_fixture.ts";

const SPAWNER_END_WORKER = new URL("./_spawner_end_worker.ts", import.meta.url).pathname;
/** A `sleep` of its own process group that the test kills through the helper. */
function sleeper(): Deno.ChildProcess {
  return new Deno.Command("sleep", { args: ["600"], stdout: "null", stderr: "null" }).spawn();
}

/** Whether `child` ended by SIGKILL; kills it itself (and fails) when it is still running. */
async function killedBy9(child: Deno.ChildProcess): Promise<boolean> {
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  try {
    const status = await child.status;
    return status.signal === "SIGKILL";
  } finally {
    clearTimeout(timer);
  }
}

// Attack: a NUL in a request's argument. C reads the argument up to the NUL, so `serve` acted on
// a shorter path than the one the orchestrator named (a one-shot run refuses the argument).
Deno.test("HelperProcess.request() never acts on a path cut short at a NUL", async () => {
  const launcher = await rootLauncher();
  if (!launcher) return;
  const helper = new HelperProcess(launcher);
  try {
    await withDir(async (dir) => {
      const ws = join(dir, "ws");
      mkdirSync(ws, { mode: 0o700 });
      const out = await helper.request("mount-workspace", ["65536", "16", `${ws}\0/elsewhere`]);
      assert.ok(!out.success, "a mount on a path with a NUL succeeded");
      assert.ok(!mounted(ws), `"${ws}" was mounted though the request named another path`);
      // The server still answers what it should.
      assert.ok((await helper.request("mount-workspace", ["65536", "16", ws])).success);
      assert.ok(mounted(ws));
      assert.ok((await helper.request("umount", [ws])).success);
      assert.ok(!mounted(ws));
    }, launcher);
  } finally {
    helper.close();
  }
});

// The server itself, sent a line with a NUL (not through HelperProcess): it stops and acts on
// nothing, whatever the orchestrator's side would have done.
Deno.test("launcher serve stops at a request line holding a NUL", async () => {
  const launcher = await rootLauncher();
  if (!launcher) return;
  await withDir(async (dir) => {
    const ws = join(dir, "ws");
    mkdirSync(ws, { mode: 0o700 });
    const child = new Deno.Command(launcher, {
      args: ["serve"],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const writer = child.stdin.getWriter();
    // The server stops at the first line: the second is never read (its stdin may be closed).
    await writer.write(new TextEncoder().encode(`1\tmount-workspace\t65536\t16\t${ws}\0/x\n`))
      .catch(() => {});
    await writer.write(new TextEncoder().encode(`2\tkill\t2147483646\n`)).catch(() => {});
    await writer.close().catch(() => {});
    const { code, stdout } = await child.output();
    assert.equal(code, 0);
    assert.equal(new TextDecoder().decode(stdout), "");
    assert.ok(!mounted(ws), `"${ws}" was mounted though the request named another path`);
  }, launcher);
});

// Attack: paths that are not the folder's own real path (`..`, a trailing slash, relative).
Deno.test("launcher serve mounts only on a folder named by its own real path", async () => {
  const launcher = await rootLauncher();
  if (!launcher) return;
  const helper = new HelperProcess(launcher);
  try {
    await withDir(async (dir) => {
      const ws = join(dir, "ws");
      mkdirSync(ws, { mode: 0o700 });
      mkdirSync(join(dir, "x"));
      for (const named of [`${dir}/x/../ws`, `${ws}/`, `${ws}/.`, ws.slice(1), "ws"]) {
        const out = await helper.request("mount-workspace", ["65536", "16", named]);
        assert.ok(!out.success, `"${named}" was mounted on`);
        assert.match(out.stderr, /not its own real path/);
      }
      assert.ok(!mounted(ws));
    }, launcher);
  } finally {
    helper.close();
  }
});

// Attack: a folder above the workspace is exchanged with a symlink to another folder of the
// same user between the server's check of the path and its use. The folder mounted on must be
// the one named, never the symlink's target.
Deno.test("launcher serve never mounts on a folder swapped in above the named one", async () => {
  const launcher = await rootLauncher();
  if (!launcher) return;
  const helper = new HelperProcess(launcher);
  await withDir(async (dir) => {
    mkdirSync(join(dir, "a", "ws"), { recursive: true, mode: 0o700 });
    mkdirSync(join(dir, "b", "ws"), { recursive: true, mode: 0o700 });
    symlinkSync(join(dir, "b"), join(dir, "alt"));
    const stop = join(dir, "stop");
    // Exchanges `a` and `alt` (the folder and the symlink) in a loop until `stop` exists.
    const swapper = new Deno.Command("python3", {
      args: [
        "-c",
        `import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
a, alt, stop = (os.fsencode(p) for p in ${JSON.stringify([join(dir, "a"), join(dir, "alt"), stop])})
n = 0
while True:
    libc.renameat2(-100, a, -100, alt, 2)
    n += 1
    if n % 256 == 0 and os.path.exists(stop):
        break
`,
      ],
      stdout: "null",
    }).spawn();
    let wrong = 0;
    let right = 0;
    try {
      for (let i = 0; i < 1000 && wrong === 0; i++) {
        const out = await helper.request("mount-workspace", ["65536", "16", join(dir, "a", "ws")]);
        if (!out.success) continue;
        if (mounted(join(dir, "b", "ws"))) wrong++;
        else right++;
        await new Deno.Command(launcher, { args: ["umount-under", dir] }).output();
      }
    } finally {
      Deno.writeFileSync(stop, new Uint8Array());
      await swapper.status;
      helper.close();
    }
    assert.equal(wrong, 0, `the symlink's target was mounted on (${right} right mounts)`);
  }, launcher);
});

// Attack: a request line longer than any request (a huge argument list). The server stops reading;
// the request and every later one must still be done (by one-shot helpers), never dropped.
Deno.test("HelperProcess.request() still does a request longer than the server reads, and the next", async () => {
  const launcher = await compiledLauncher();
  if (!launcher) return;
  const helper = new HelperProcess(launcher);
  const first = sleeper();
  const second = sleeper();
  try {
    const padding = Array.from({ length: 8000 }, () => "2147483646");
    const out = await helper.request("kill", [...padding, String(first.pid)]);
    assert.ok(out.success, out.stderr);
    assert.ok(await killedBy9(first), "the huge request's kill was dropped");
    assert.ok((await helper.request("kill", [String(second.pid)])).success);
    assert.ok(await killedBy9(second), "the request after the huge one was dropped");
  } finally {
    helper.close();
  }
});

// Attack: the serve process is killed (an OOM kill, a stray signal). What was asked after it died
// is still done: nothing runs without its sweep or kill.
Deno.test("HelperProcess.request() still kills after its serve process was killed", async () => {
  const launcher = await compiledLauncher();
  if (!launcher) return;
  const helper = new HelperProcess(launcher);
  const first = sleeper();
  const second = sleeper();
  try {
    assert.ok((await helper.request("kill", [String(first.pid)])).success);
    assert.ok(await killedBy9(first));
    // This helper's own server, never one found among this process's children: test files that
    // run beside this one (`--parallel` runs them in this process) have servers of their own.
    const pid = helper.pid;
    assert.ok(pid !== null && (await servePids()).includes(pid), "no serve process of this test");
    Deno.kill(pid, "SIGKILL");
    // Its pid is reaped by the helper's own status promise: wait until it is gone.
    for (let i = 0; i < 1000 && (await servePids()).includes(pid); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.ok((await helper.request("kill", [String(second.pid)])).success);
    assert.ok(await killedBy9(second), "a kill asked after the server died was dropped");
  } finally {
    helper.close();
  }
});

// Attack: one sample's answer handed to another's request. Many requests at once through one
// server, each failing with a message that names its own argument, get their own answers.
Deno.test("HelperProcess.request() gives each of many concurrent requests its own answer", async () => {
  const launcher = await compiledLauncher();
  if (!launcher) return;
  const helper = new HelperProcess(launcher);
  try {
    const names = Array.from({ length: 200 }, (_, i) => `procs:/not-a-cgroup/sample-${i}/x`);
    const answers = await Promise.all(names.map((name) => helper.request("sweep", [name])));
    answers.forEach((out, i) => {
      assert.ok(!out.success);
      assert.match(out.stderr, new RegExp(`"procs:/not-a-cgroup/sample-${i}/x" names no cgroup`));
    });
  } finally {
    helper.close();
  }
});

// Attack: a child reaching the serve process's pipes through a descriptor it inherited (it would
// then write requests as the orchestrator, or forge answers). The spawner thread made both, so a
// child it starts while the server runs has nothing but its own stdin, stdout and stderr.
Deno.test("Sandbox.run() from the spawner thread hands the child no descriptor of the serve process", async () => {
  const sandbox = await testSandbox();
  if (!sandbox.isolation.launcher) return skip("no compiled launcher");
  const ws = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-rtspawn-" }));
  try {
    // A request to the spawner thread's helper starts its serve process.
    const spawner = spawnerFor(sandbox.isolation.launcher);
    assert.ok((await spawner.helper("kill", ["2147483646"])).success);
    const result = await sandbox.run({
      argv: [
        "python3",
        "-c",
        "import os\nfor fd in sorted(os.listdir('/proc/self/fd')):\n  try: print(fd, os.readlink(f'/proc/self/fd/{fd}'))\n  except OSError: pass",
      ],
      cwd: ws,
      timeoutMs: 20_000,
    });
    assert.equal(result.exitCode, 0, result.stderr);
    const fds = result.stdout.trim().split("\n").map((line) => line.split(" ")[0]);
    // 0-2 and the descriptor of the listing itself (closed by the time it is read: no target).
    assert.deepEqual(fds.filter((fd) => Number(fd) > 2), [], result.stdout);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

// Attack surface: the serve process kept all of root's capabilities, its bounding set, and was
// dumpable (a process of the same user, in an unjailed run, could open its pipes through /proc).
Deno.test("launcher serve keeps only the capabilities its requests need and is not dumpable", async () => {
  const launcher = await compiledLauncher();
  if (!launcher) return;
  const helper = new HelperProcess(launcher);
  try {
    assert.ok((await helper.request("kill", ["2147483646"])).success);
    const pid = helper.pid;
    assert.ok(pid !== null && (await servePids()).includes(pid), "no serve process of this test");
    const status = await new Deno.Command("cat", { args: [`/proc/${pid}/status`], stdout: "piped" })
      .output();
    const field = (name: string) =>
      new TextDecoder().decode(status.stdout).match(new RegExp(`^${name}:\\s*(\\S+)`, "m"))?.[1];
    assert.equal(field("NoNewPrivs"), "1");
    assert.equal(field("CapInh"), "0000000000000000");
    assert.equal(field("CapAmb"), "0000000000000000");
    const root = field("Uid") === "0";
    if (root) {
      // SYS_ADMIN, KILL, DAC_OVERRIDE, DAC_READ_SEARCH and FOWNER; nothing to exec with.
      assert.equal(field("CapEff"), "000000000020002e");
      assert.equal(field("CapPrm"), "000000000020002e");
      assert.equal(field("CapBnd"), "0000000000000000");
    } else {
      // A process of the same user cannot reach its stdin through /proc.
      const open = await new Deno.Command("python3", {
        args: ["-c", `open('/proc/${pid}/fd/0', 'wb')`],
        stderr: "piped",
      }).output();
      assert.ok(!open.success, "a process of the same user opened the server's stdin");
      assert.match(new TextDecoder().decode(open.stderr), /PermissionError/);
    }
  } finally {
    helper.close();
  }
});

// Attack: bytes on the server's stdout that are not its answers (an unjailed process of the same
// user can open a pipe of the orchestrator through /proc and write into it). A first line that is
// not a header made the reader loop for ever on its thread; a header with a huge length left
// every request waiting. Each request must still be done, by a one-shot helper.
Deno.test("HelperProcess.request() runs one-shot when the server's output is not its answers", async () => {
  const dir = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-rtspawn-" }));
  try {
    for (const [name, line] of [["garbage", "not an answer"], ["huge", "1 0 99999999 0"]]) {
      // A stand-in launcher: its `serve` prints `line` and waits; its one-shot mode says so.
      const fake = join(dir, name);
      Deno.writeTextFileSync(
        fake,
        `#!/bin/sh\nif [ "$1" = serve ]; then echo '${line}'; exec cat >/dev/null; fi\necho "one-shot $*"\n`,
      );
      Deno.chmodSync(fake, 0o755);
      const helper = new HelperProcess(fake);
      let guard: ReturnType<typeof setTimeout> | undefined;
      try {
        const out = await Promise.race([
          helper.request("kill", ["2147483646"]),
          new Promise<null>((resolve) => guard = setTimeout(() => resolve(null), 20_000)),
        ]);
        assert.ok(out, `a request waited for ever on "${line}"`);
        assert.equal(out.stdout, "one-shot kill 2147483646\n");
        assert.ok(out.success);
      } finally {
        clearTimeout(guard);
        helper.close();
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// Attack: a child that never reads its stdin, given more than a pipe holds. Its timeout started
// only once all of stdin was written, so the run waited for ever (and its output went unread).
Deno.test("Sandbox.run() times out a child that never reads a stdin larger than a pipe", async () => {
  const sandbox = await testSandbox();
  const ws = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-rtspawn-" }));
  let guard: ReturnType<typeof setTimeout> | undefined;
  try {
    const result = await Promise.race([
      sandbox.run({
        // It would end by itself after 60 s: a broken defense leaves nothing running for long.
        argv: ["python3", "-c", "import sys, time\nprint('x' * 200000)\ntime.sleep(60)"],
        cwd: ws,
        stdin: new Uint8Array(4 * 1024 * 1024),
        timeoutMs: 2_000,
      }),
      new Promise<null>((resolve) => guard = setTimeout(() => resolve(null), 45_000)),
    ]);
    assert.ok(result, "the run outlived its timeout: it waited for the child to read its stdin");
    assert.ok(result.timedOut);
    assert.ok(result.stdout.startsWith("xxxx"), result.stderr);
  } finally {
    clearTimeout(guard);
    await Deno.remove(ws, { recursive: true });
  }
});

// Attack surface: serve processes piling up, each privileged, as spawner threads end and start.
// A thread that ends takes its serve process with it. Checked in a process of its own: test files
// that run beside this one (`--parallel` runs them in this process) start and end servers too.
Deno.test("Spawner leaves no serve process behind when its thread ends", async () => {
  const launcher = await compiledLauncher();
  if (!launcher) return;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", SPAWNER_END_WORKER, launcher],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const line = /^RESULT (\{.*\})$/m.exec(text)?.[1];
  assert.ok(line, `the worker said no result: ${text}${new TextDecoder().decode(out.stderr)}`);
  const { started, threadRunning, left } = JSON.parse(line) as {
    started: number[];
    threadRunning: boolean;
    left: number[];
  };
  assert.equal(started.length, 1, "the request started no serve process: the test proves nothing");
  assert.ok(!threadRunning, "the idle thread is still running");
  assert.deepEqual(left, [], "the serve process outlived its spawner thread");
});
