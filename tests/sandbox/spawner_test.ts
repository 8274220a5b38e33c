/**
 * The spawner thread (src/sandbox/_spawner.ts) and the launcher's `serve` process it talks to
 * (src/sandbox/_helper.ts, `serve` in launcher/patchgym_launch.c): one long-lived privileged
 * process per spawner thread that sweeps cgroups, mounts and unmounts workspaces and kills on
 * request. Attacks on the new pieces: a mount request naming a symlink or a folder others may
 * write, a launch smuggled in as a request, the server seen from inside the jail.
 */
import assert from "node:assert/strict";
import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { HelperProcess } from "../../src/sandbox/_helper.ts";
import { Spawner, spawnerFor } from "../../src/sandbox/_spawner.ts";
import { probeCgroups, sandboxCgroup } from "../../src/sandbox/cgroup.ts";
import { echoSpec, pidsWith, testSandbox } from "../_fixtures.ts";
import { mounted, rootLauncher, skip, withDir } from "./_launcher_fixture.ts";

/** Send `lines` to a fresh `serve` process, close its stdin, return what it answered. */
async function serve(launcher: string, lines: string[]): Promise<{ code: number; out: string }> {
  const child = new Deno.Command(launcher, {
    args: ["serve"],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(lines.map((l) => `${l}\n`).join("")));
  await writer.close();
  const { code, stdout } = await child.output();
  return { code, out: new TextDecoder().decode(stdout) };
}

Deno.test("HelperProcess.request() mounts a capped workspace, unmounts it and kills, from one process", async () => {
  const launcher = await rootLauncher();
  if (!launcher) return;
  const helper = new HelperProcess(launcher);
  try {
    await withDir(async (dir) => {
      const ws = join(dir, "ws");
      mkdirSync(ws);
      const out = await helper.request("mount-workspace", ["65536", "16", ws]);
      assert.ok(out.success, out.stderr);
      assert.ok(mounted(ws));
      // The cap holds while writing.
      await assert.rejects(Deno.writeFile(join(ws, "big"), new Uint8Array(1024 * 1024)));
      assert.ok((await helper.request("umount", [ws])).success);
      assert.ok(!mounted(ws));
      // Requests answer in any order: several at once, each by its own id.
      const many = await Promise.all(
        Array.from({ length: 8 }, () => helper.request("kill", ["2147483646"])),
      );
      assert.ok(many.every((o) => o.success));
    }, launcher);
  } finally {
    helper.close();
  }
});

Deno.test("HelperProcess.request() sweeps an emptied cgroup at once, and one with a process left by killing it", async () => {
  const launcher = await rootLauncher();
  if (!launcher) return;
  const cgroups = await probeCgroups(launcher);
  if (!cgroups.support) return skip(`no per-sandbox cgroups here (${cgroups.reason})`);
  const helper = new HelperProcess(launcher);
  try {
    // Emptied: its only process exited (what a jail's cgroup is once bwrap is reaped).
    const emptied = sandboxCgroup(
      cgroups.support,
      { processes: 8, memoryBytes: 1 << 28 },
      launcher,
    );
    const made = await new Deno.Command(launcher, { args: [...emptied.steps, "--", "true"] })
      .output();
    assert.ok(made.success, new TextDecoder().decode(made.stderr));
    const swept = await helper.request("sweep", emptied.sweepArgs);
    assert.ok(swept.success, swept.stderr);
    assert.match(swept.stdout, /pids\.events max 0/);
    assert.deepEqual(emptied.caps(swept), { processes: false, memory: false });
    for (const dir of sweptDirs(emptied.sweepArgs)) assert.ok(!await exists(dir), `${dir} left`);
    // A process left in it: killed, then the cgroup removed.
    const busy = sandboxCgroup(cgroups.support, { processes: 8, memoryBytes: 1 << 28 }, launcher);
    const token = `patchgym-sweep-${crypto.randomUUID()}`;
    const sleeper = new Deno.Command(launcher, {
      args: [...busy.steps, "--", "python3", "-c", "import time; time.sleep(600)", token],
      stdout: "null",
      stderr: "null",
    }).spawn();
    for (let i = 0; (await pidsWith(token)).length === 0; i++) {
      assert.ok(i < 1000, "the process never started");
      await new Promise((r) => setTimeout(r, 20));
    }
    const killed = await helper.request("sweep", busy.sweepArgs);
    assert.ok(killed.success, killed.stderr);
    assert.notEqual((await sleeper.status).signal, null);
    for (const dir of sweptDirs(busy.sweepArgs)) assert.ok(!await exists(dir), `${dir} left`);
  } finally {
    helper.close();
  }
});

for (const via of ["the launcher", "the sh fallback"]) {
  Deno.test(`probeCgroups() through ${via} kills what a dead patchgym process left in its cgroups, and removes them`, async () => {
    const launcher = await rootLauncher();
    if (!launcher) return;
    const prober = via === "the launcher" ? launcher : null;
    const cgroups = await probeCgroups(prober);
    if (!cgroups.support) return skip(`no per-sandbox cgroups here (${cgroups.reason})`);
    // A pid no process has: one that just ended (a new process could take it; the test then fails
    // safe, the cgroup kept as a live process's).
    const ended = new Deno.Command("true").spawn();
    await ended.status;
    const leftover = sandboxCgroup(
      cgroups.support,
      { processes: 8, memoryBytes: 1 << 28 },
      launcher,
    );
    const name = leftover.name.replace(`-${Deno.pid}-`, `-${ended.pid}-`);
    const steps = leftover.steps.map((step) => step.replaceAll(leftover.name, name));
    const token = `patchgym-dead-${crypto.randomUUID()}`;
    // What a bwrap killed while it made a jail leaves: a process waiting forever in the cgroup.
    const waiter = new Deno.Command(launcher, {
      args: [...steps, "--", "python3", "-c", "import time; time.sleep(600)", token],
      stdout: "null",
      stderr: "null",
    }).spawn();
    const dirs = sweptDirs(leftover.sweepArgs).map((dir) => dir.replaceAll(leftover.name, name));
    assert.ok(dirs.length > 0);
    // In its cgroups once the launcher made them and joined them (the program is then running).
    // The name is a dead process's to every probe: one in a test file running beside this one may
    // sweep it first, and then the same must hold (killed, removed), whoever's probe it was.
    let gone = false;
    waiter.status.then(() => gone = true);
    for (
      let i = 0;
      !gone && !(await everyExists(dirs) && (await pidsWith(token)).length > 0);
      i++
    ) {
      assert.ok(i < 1000, "the process never started");
      await new Promise((r) => setTimeout(r, 20));
    }
    try {
      await probeCgroups(prober);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const status = await Promise.race([
        waiter.status,
        new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), 30_000)),
      ]);
      clearTimeout(timer);
      // Killed by a sweep (SIGKILL), not dead of something else before it joined its cgroups.
      assert.equal(status?.signal, "SIGKILL", "the process left in the cgroup was not killed");
      for (const dir of dirs) assert.ok(!await exists(dir), `${dir} left`);
    } finally {
      for (const pid of await pidsWith(token)) Deno.kill(pid, "SIGKILL");
      await waiter.status;
      await new Deno.Command("rmdir", { args: dirs, stderr: "null" }).output();
    }
  });
}

async function everyExists(paths: string[]): Promise<boolean> {
  for (const path of paths) if (!await exists(path)) return false;
  return true;
}

/** The cgroup folders a sweep's arguments remove. */
function sweptDirs(args: string[]): string[] {
  return args.filter((a) => a.startsWith("rmdir:")).map((a) => a.slice(6));
}

/** Whether `path` exists (through `test`: Deno reads /sys only with --allow-all). */
async function exists(path: string): Promise<boolean> {
  return (await new Deno.Command("test", { args: ["-e", path] }).output()).success;
}

Deno.test("launcher serve refuses to mount on a path that leads through a symlink", async () => {
  const launcher = await rootLauncher();
  if (!launcher) return;
  await withDir(async (dir) => {
    const target = join(dir, "real");
    mkdirSync(target);
    symlinkSync(target, join(dir, "ws"));
    const { out } = await serve(launcher, [`1\tmount-workspace\t65536\t16\t${join(dir, "ws")}`]);
    assert.match(out, /^1 1 0 \d+\n.*is not its own real path/);
    assert.ok(!mounted(target) && !mounted(join(dir, "ws")));
  }, launcher);
});

Deno.test("launcher serve refuses to mount on a folder that another user owns or may write", async () => {
  const launcher = await rootLauncher();
  if (!launcher) return;
  await withDir(async (dir) => {
    const ws = join(dir, "ws");
    mkdirSync(ws);
    Deno.chmodSync(ws, 0o777);
    const open = await serve(launcher, [`1\tmount-workspace\t65536\t16\t${ws}`]);
    assert.match(open.out, /^1 1 0 \d+\n.*only it may write/);
    Deno.chmodSync(ws, 0o755);
    Deno.chownSync(ws, 65534, 65534);
    const theirs = await serve(launcher, [`2\tmount-workspace\t65536\t16\t${ws}`]);
    assert.match(theirs.out, /^2 1 0 \d+\n.*only it may write/);
    assert.ok(!mounted(ws));
  }, launcher);
});

Deno.test("launcher serve runs no program: a launch sent as a request is an unknown mode", async () => {
  const launcher = await rootLauncher();
  if (!launcher) return;
  await withDir(async (dir) => {
    const marker = join(dir, "ran");
    const { code, out } = await serve(launcher, [
      `1\t--\ttouch\t${marker}`,
      `2\tmount-probe`,
      `3\tsweep\tprocs:/etc/passwd`,
    ]);
    assert.equal(code, 0);
    const answers = out.split(/(?=^\d+ \d+ )/m).sort();
    assert.match(answers[0], /^1 2 0 \d+\nunknown mode "--"/);
    assert.match(answers[1], /^2 2 0 \d+\nunknown mode "mount-probe"/);
    assert.match(answers[2], /^3 1 0 \d+\n.*names no cgroup path/);
    assert.throws(() => Deno.statSync(marker));
  }, launcher);
});

Deno.test("HelperProcess.request() runs an argument with a tab or newline as a one-shot helper", async () => {
  const launcher = await rootLauncher();
  if (!launcher) return;
  const helper = new HelperProcess(launcher);
  try {
    await withDir(async (dir) => {
      const ws = join(dir, "w\ts");
      mkdirSync(ws);
      const out = await helper.request("mount-workspace", ["65536", "16", ws]);
      assert.ok(out.success, out.stderr);
      assert.ok((await helper.request("umount", [ws])).success);
    }, launcher);
  } finally {
    helper.close();
  }
});

Deno.test("Sandbox.run() under bwrap cannot see the launcher's serve or runs process", async () => {
  const sandbox = await testSandbox();
  if (sandbox.isolation.level !== "bwrap") return skip("no bwrap here");
  if (!sandbox.isolation.launcher) return skip("no compiled launcher");
  if (!sandbox.isolation.cgroup) return skip("no cgroups: no sweep, no serve process");
  const ws = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-spawner-" }));
  try {
    // The first run starts the runs process (and a mount, the serve process); the second looks.
    await sandbox.run({ argv: ["true"], cwd: ws, timeoutMs: 10_000 });
    await spawnerFor(sandbox.isolation.launcher).helper("kill", ["2147483646"]);
    const result = await sandbox.run({
      argv: [
        "python3",
        "-c",
        "import os\nfor p in os.listdir('/proc'):\n  if p.isdigit():\n    print(open(f'/proc/{p}/cmdline','rb').read().replace(b'\\0', b' ').decode())",
      ],
      cwd: ws,
      timeoutMs: 10_000,
    });
    assert.equal(result.exitCode, 0, result.stderr);
    // As root the jail's first program is the launcher's drop step: itself, never a server.
    assert.doesNotMatch(result.stdout, /\b(serve|runs)\b/);
    const ps = await new Deno.Command("ps", { args: ["-eo", "args"], stdout: "piped" }).output();
    const listed = new TextDecoder().decode(ps.stdout);
    for (const mode of ["serve", "runs"]) {
      const serving = new RegExp(`patchgym_launch ${mode}`).test(listed);
      assert.ok(serving, `no ${mode} process outside the jail: the test proves nothing`);
    }
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("Spawner ends its idle thread and starts a new one for the next run", async () => {
  const sandbox = await testSandbox();
  const spawner = new Spawner(sandbox.isolation.launcher ?? null, { idleMs: 100 });
  const ws = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-spawner-" }));
  const echo = (word: string) => echoSpec(word, ws);
  try {
    assert.equal((await spawner.run(echo("one"))).stdout, "one\n");
    assert.ok(spawner.threadRunning);
    // Idle for longer than the thread waits: it has ended by now.
    for (let i = 0; i < 100 && spawner.threadRunning; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(!spawner.threadRunning, "the idle thread is still running");
    assert.equal((await spawner.run(echo("two"))).stdout, "two\n");
    const out = await spawner.helper("kill", ["2147483646"]);
    assert.ok(out.success, out.stderr);
  } finally {
    await Deno.remove(ws, { recursive: true });
    // Ended by its idle wait, which the test waits for: no thread outlives it.
    for (let i = 0; i < 100 && spawner.threadRunning; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
});

Deno.test("spawnOnThisThread() makes a thread run its children and helper requests itself", async () => {
  const sandbox = await testSandbox();
  const cwd = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-spawner-" }));
  const worker = new Worker(new URL("./_host_here_worker.ts", import.meta.url), { type: "module" });
  try {
    const reply = await new Promise<Record<string, unknown>>((resolve, reject) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(event.message));
      worker.postMessage({
        launcher: sandbox.isolation.launcher ?? null,
        cwd,
        isolation: sandbox.isolation,
      });
    });
    // Its commands' jails are made ahead where they are anywhere (bwrap, the launcher).
    const { isolation } = sandbox;
    const aheadable = isolation.level === "bwrap" && !!isolation.launcher;
    assert.deepEqual(reply, {
      stdout: "here\n",
      helper: true,
      commands: [["ran\n", false], ["ran\n", aheadable]],
      threadRunning: false,
    });
  } finally {
    worker.terminate();
    await Deno.remove(cwd, { recursive: true });
  }
});
