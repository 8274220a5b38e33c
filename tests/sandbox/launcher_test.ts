/**
 * The compiled launcher (src/sandbox/launcher.ts, launcher/patchgym_launch.c): built once per
 * source, it sets a child up like the shell launcher did and execs only bwrap or an allowlisted
 * program, so granting it to the orchestrator does not grant "run anything".
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { HelperProcess } from "../../src/sandbox/_helper.ts";
import { helperArgv, LAUNCH_SCRIPT } from "../../src/sandbox/_launch.ts";
import { buildLauncher, SPAWNER_MODULE_READS } from "../../src/sandbox/launcher.ts";
import {
  guarantees,
  missingGuarantees,
  probeIsolation,
  Sandbox,
} from "../../src/sandbox/sandbox.ts";
import { programOnPath } from "../_fixtures.ts";
import { mounted } from "./_launcher_fixture.ts";

function skip(reason: string): void {
  console.warn(`skipped: ${reason}`);
}

/** The launcher, or null (with a note) where this machine has no C compiler. */
async function launcher(): Promise<string | null> {
  const built = await buildLauncher();
  if (!built.path) skip(`no compiled launcher: ${built.reason}`);
  return built.path;
}

/** Run the launcher with `args` and no environment. */
async function run(path: string, args: string[]) {
  const out = await new Deno.Command(path, {
    args,
    cwd: "/",
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

async function isRoot(path: string): Promise<boolean> {
  return (await run(path, ["uid"])).stdout.trim() === "0";
}

Deno.test("buildLauncher() builds once into a cache folder only its owner can write", async () => {
  const path = await launcher();
  if (!path) return;
  assert.equal((await buildLauncher()).path, path);
  for (const entry of [path, join(path, "..")]) {
    const mode = Deno.statSync(entry).mode ?? 0;
    assert.equal(mode & 0o022, 0, `${entry} is writable by group or others`);
  }
  assert.match(path, /\/patchgym\/launcher\/[0-9a-f]{32}\/patchgym_launch$/);
});

/** Whether the ELF file at `path` names a dynamic loader (a `PT_INTERP` program header). */
function dynamicallyLinked(path: string): boolean {
  const bytes = Deno.readFileSync(path);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const start = Number(view.getBigUint64(0x20, true));
  const size = view.getUint16(0x36, true);
  const count = view.getUint16(0x38, true);
  for (let i = 0; i < count; i++) if (view.getUint32(start + i * size, true) === 3) return true;
  return false;
}

Deno.test("buildLauncher() links the launcher dynamically where it cannot link it statically", async () => {
  const compiler = programOnPath("cc", "gcc", "clang");
  if (!compiler || !(await launcher())) return;
  const dir = await Deno.makeTempDir({ prefix: "patchgym-cc-" });
  try {
    // A compiler whose C library has no static archive (as on many distributions by default).
    await Deno.mkdir(`${dir}/bin`);
    await Deno.writeTextFile(
      `${dir}/bin/cc`,
      `#!/bin/sh\nfor a in "$@"; do [ "$a" = -static ] && { echo "no static libc" >&2; exit 1; }; done\nexec ${compiler} "$@"\n`,
      { mode: 0o755 },
    );
    const source = `import { buildLauncher } from ${
      JSON.stringify(new URL("../../src/sandbox/launcher.ts", import.meta.url).href)
    };\nconsole.log(JSON.stringify(await buildLauncher({ cache: ${
      JSON.stringify(`${dir}/cache`)
    } })));`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-config", source],
      env: { PATH: `${dir}/bin:${Deno.env.get("PATH") ?? ""}` },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const said = new TextDecoder().decode(out.stdout).trim();
    const built = JSON.parse(said || "{}") as { path?: string | null; reason?: string };
    assert.ok(built.path, `no launcher: ${built.reason ?? new TextDecoder().decode(out.stderr)}`);
    assert.equal(dynamicallyLinked(built.path), true);
    assert.equal((await run(built.path, ["tag:0a1b", "--", "echo", "ok"])).stdout, "ok\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("buildLauncher() links the launcher statically where the C library allows it", async () => {
  const path = await launcher();
  const compiler = programOnPath("cc", "gcc", "clang");
  if (!path || !compiler) return;
  const dir = await Deno.makeTempDir({ prefix: "patchgym-cc-" });
  try {
    await Deno.writeTextFile(`${dir}/a.c`, "int main(void) { return 0; }\n");
    const probe = await new Deno.Command(compiler, {
      args: ["-static", "-o", `${dir}/a`, `${dir}/a.c`],
      stdout: "null",
      stderr: "null",
    }).output();
    if (!probe.success) return skip("this C library cannot link statically");
    assert.equal(dynamicallyLinked(path), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("buildLauncher() makes a launcher that refuses every program but bwrap and the allowlist", async () => {
  const path = await launcher();
  if (!path) return;
  assert.equal((await run(path, ["--", "echo", "allowed"])).stdout, "allowed\n");
  for (const program of ["bash", "sh", "/bin/sh", "/usr/bin/python3", "../bin/echo", "env", ""]) {
    const out = await run(path, ["--", program, "-c", "echo escaped"]);
    assert.equal(out.code, 125, program);
    assert.equal(out.stdout, "", program);
    assert.match(out.stderr, /^patchgym: cannot set up the sandbox: /, program);
  }
  // No program at all, or no "--" before it.
  assert.equal((await run(path, ["--"])).code, 125);
  assert.equal((await run(path, ["echo", "x"])).code, 125);
  // With the run's tag first, a failure line ends with it (what tells it from the program's own).
  const tagged = await run(path, ["tag:0a1b", "--", "bash", "-c", "echo escaped"]);
  assert.equal(tagged.code, 125);
  assert.match(tagged.stderr, /^patchgym: cannot set up the sandbox: .* \[0a1b\]\n$/);
  assert.equal((await run(path, ["tag:0a1b", "--", "echo", "ok"])).stdout, "ok\n");
});

Deno.test("buildLauncher() makes a launcher that writes only under /sys/fs/cgroup", async () => {
  const path = await launcher();
  if (!path) return;
  const dir = await Deno.makeTempDir();
  try {
    const target = join(dir, "written");
    await Deno.writeTextFile(target, "");
    for (
      const step of [
        `${target}=owned`,
        `mkdir:${join(dir, "made")}`,
        `join:${target}`,
        `jointask:/sys/fs/cgroup/../..${target}`,
        `/sys/fs/cgroup/pids/../../..${target}=owned`,
      ]
    ) {
      const out = await run(path, [step, "--", "true"]);
      assert.equal(out.code, 125, step);
      assert.match(out.stderr, /outside \/sys\/fs\/cgroup/, step);
    }
    assert.equal(await Deno.readTextFile(target), "");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["written"]);
    const sweep = await run(path, ["sweep", `procs:${target}`, `rmdir:${dir}`]);
    assert.equal(sweep.code, 1);
    assert.ok(Deno.statSync(dir).isDirectory);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("buildLauncher() makes a launcher that sets rlimits and hands passwd, group and seccomp bytes on fds 3-5", async () => {
  const path = await launcher();
  if (!path) return;
  const limits = await run(path, [
    "ulimit:t=7",
    "ulimit:f=8",
    "ulimit:n=64",
    "ulimit:c=0",
    "ulimit:v=1048576",
    "nproc:4096",
    "--",
    "cat",
    "/proc/self/limits",
  ]);
  assert.equal(limits.code, 0, limits.stderr);
  const limit = (name: string) =>
    limits.stdout.split("\n").find((l) => l.startsWith(name))?.split(/\s{2,}/).slice(1, 3);
  assert.deepEqual(limit("Max cpu time"), ["7", "7"]);
  assert.deepEqual(limit("Max file size"), ["4096", "4096"]);
  assert.deepEqual(limit("Max open files"), ["64", "64"]);
  assert.deepEqual(limit("Max core file size"), ["0", "0"]);
  assert.deepEqual(limit("Max address space"), [String(1024 ** 3), String(1024 ** 3)]);
  assert.deepEqual(limit("Max processes"), ["4096", "4096"]);
  const fds = await run(path, [
    "passwd:users\n",
    "group:groups\n",
    "seccomp:007f41",
    "--",
    "cat",
    "/dev/fd/3",
    "/dev/fd/4",
    "/dev/fd/5",
  ]);
  assert.equal(fds.code, 0, fds.stderr);
  assert.equal(fds.stdout, "users\ngroups\n\u0000\u007fA");
});

Deno.test("buildLauncher() makes a launcher whose jailnproc step runs only as a jail's first program", async () => {
  const path = await launcher();
  if (!path) return;
  // Here its parent is this test, not a jail's pid 1, whose limit it would lower as well.
  const out = await run(path, ["jailnproc:64", "--", "true"]);
  assert.equal(out.code, 125);
  assert.match(out.stderr, /not a jail's first program \(its parent is not pid 1\)/);
  // In a jail it caps itself and pid 1: tests/sandbox/nproc_redteam_test.ts.
});

Deno.test("buildLauncher() makes a launcher whose nice step lowers the priority of all it starts, and only within 0 to 19", async () => {
  const path = await launcher();
  if (!path) return;
  // Field 19 of /proc/PID/stat is the niceness.
  const niceness = async (steps: string[]) => {
    const out = await run(path, [...steps, "--", "cat", "/proc/self/stat"]);
    assert.equal(out.code, 0, out.stderr);
    return Number(out.stdout.slice(out.stdout.lastIndexOf(")") + 2).split(" ")[16]);
  };
  assert.equal(await niceness([]), 0);
  assert.equal(await niceness(["nice:10"]), 10);
  assert.equal(await niceness(["nice:19"]), 19);
  for (const step of ["nice:20", "nice:-5", "nice:x"]) {
    const out = await run(path, [step, "--", "true"]);
    assert.equal(out.code, 125, step);
  }
});

Deno.test("the launcher's waited mode and the sh fallback say what a cgroup's processes waited for a CPU and used of it (as root)", async () => {
  const path = await launcher();
  if (!path) return;
  if (!await isRoot(path)) return skip("not root");
  const [pidsRoot, cpuRoot] = ["/sys/fs/cgroup/pids", "/sys/fs/cgroup/cpuacct"];
  const name = `patchgym-test-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  const [group, counter] = [`${pidsRoot}/${name}`, `${cpuRoot}/${name}`];
  // Deno touches no cgroup file without --allow-all: sh does.
  const made = await new Deno.Command("sh", {
    args: ["-c", 'test -e "$1/cgroup.procs" && test -e "$2/cgroup.procs" && mkdir "$3" "$4"', "sh"]
      .concat(pidsRoot, cpuRoot, group, counter),
    stderr: "null",
  }).output();
  if (!made.success) return skip("no cgroup v1 pids and cpuacct hierarchies here");
  // Each program joins both cgroups first, so all it starts is in them.
  const join = `for f in ${group}/cgroup.procs ${counter}/cgroup.procs; do echo $$ > $f; done; `;
  const start = (script: string) =>
    new Deno.Command("sh", { args: ["-c", script], stdout: "null", stderr: "null" }).spawn();
  // Twice as many busy loops as cores at niceness 0, outside the cgroup.
  const hogs = Array.from(
    { length: 2 * navigator.hardwareConcurrency },
    () => start("while :; do :; done"),
  );
  // In the cgroup: a busy loop at niceness 19, which runs a few ms and waits the rest; and a
  // child busy for 0.3 s that no one reaps (SIGCHLD ignored): its CPU time is in no process's.
  const starved = start(`${join}nice -n 19 sh -c "while :; do :; done" & wait`);
  const hidden = start(
    `${join}exec python3 -c "import os, signal, time
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
if os.fork() == 0:
    t = time.process_time()
    while time.process_time() - t < 0.3: pass
    os._exit(0)
time.sleep(30)"`,
  );
  try {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const args = [`procs:${group}/cgroup.procs`, `cpu:${counter}/cpuacct.usage`];
    for (const launcherPath of [path, null]) {
      const who = launcherPath ? "launcher" : "sh";
      const [program, ...rest] = helperArgv(launcherPath, "waited", args);
      const out = await run(program, rest);
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /^\d+ \d+ \d+\n$/, `${who}: ${out.stdout}`);
      const [waited, cpu, idle] = out.stdout.trim().split(" ").map(Number);
      assert.ok(waited >= 500, `${who}: waited ${waited} ms`);
      // The cgroup counts the hidden child's CPU, and the starved loop's little.
      assert.ok(cpu >= 250, `${who}: CPU ${cpu} ms`);
      assert.ok(idle >= 0, `${who}: idle ${idle}`);
      // Without the CPU count: -1. Paths outside the cgroup tree, other files, other words: refused.
      const [p2, ...r2] = helperArgv(launcherPath, "waited", [args[0]]);
      assert.match((await run(p2, r2)).stdout, /^\d+ -1 \d+\n$/);
      for (
        const bad of [
          "procs:/etc/passwd",
          "procs:/sys/fs/cgroup/../../etc/passwd",
          `cpu:${group}/pids.max`,
          "pid:1",
        ]
      ) {
        const [program, ...rest] = helperArgv(launcherPath, "waited", [bad]);
        const refused = await run(program, rest);
        assert.equal(refused.code, 1, `${who}: ${bad}`);
        assert.match(refused.stderr, /is neither procs:FILE nor cpu:FILE of a cgroup/);
      }
    }
  } finally {
    for (const child of [...hogs, starved, hidden]) {
      try {
        child.kill("SIGKILL");
      } catch {
        // Ended already.
      }
      await child.status;
    }
    // What is left in the cgroup (the loop below the first sh) goes, then the cgroups.
    await new Deno.Command(path, {
      args: ["sweep", `procs:${group}/cgroup.procs`, `rmdir:${group}`, `rmdir:${counter}`],
    }).output();
  }
});

Deno.test("buildLauncher() makes a launcher that closes every inherited descriptor", async () => {
  const path = await launcher();
  if (!path) return;
  // A descriptor of the host's / left open without close-on-exec by whoever started patchgym.
  const out = await new Deno.Command("python3", {
    args: [
      "-I",
      "-c",
      `import os, sys
for n in (3, 9, 47, 1000):
    fd = os.open('/', os.O_RDONLY | os.O_DIRECTORY); os.dup2(fd, n); os.set_inheritable(n, True)
os.execv(sys.argv[1], [sys.argv[1], '--', 'ls', '/proc/self/fd'])`,
      path,
    ],
    clearEnv: true,
    env: { PATH: "/usr/bin:/bin" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const fds = new TextDecoder().decode(out.stdout).trim().split("\n").map(Number);
  // 0-2 and ls's own listing descriptor (3) at most.
  assert.deepEqual(fds.filter((fd) => fd > 3), []);
});

Deno.test("buildLauncher() makes a launcher whose drop step leaves no privilege (as root)", async () => {
  const path = await launcher();
  if (!path) return;
  if (!await isRoot(path)) return skip("not root");
  const out = await run(path, ["drop:70001", "setsid", "--", "cat", "/proc/self/status"]);
  assert.equal(out.code, 0, out.stderr);
  const field = (name: string) =>
    out.stdout.split("\n").find((l) => l.startsWith(`${name}:`))?.split(/\s+/).slice(1).join(" ");
  assert.equal(field("Uid"), "70001 70001 70001 70001");
  assert.equal(field("Gid"), "70001 70001 70001 70001");
  assert.equal(field("Groups"), "");
  assert.equal(field("NoNewPrivs"), "1");
  for (const caps of ["CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"]) {
    assert.equal(field(caps), "0000000000000000", caps);
  }
  // Only sandbox uids may own a workspace, never root or a login user.
  const dir = await Deno.makeTempDir();
  try {
    for (const uid of ["0", "1000", "65535"]) {
      const chown = await run(path, [`chown:${uid}:${dir}`, "--", "true"]);
      assert.equal(chown.code, 125, uid);
    }
    assert.equal(Deno.statSync(dir).uid, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("probeIsolation() falls back to the sh launcher and says that --allow-run names sh", async () => {
  const isolation = await probeIsolation("auto", { launcher: null });
  assert.equal(isolation.launcher, null);
  assert.ok(missingGuarantees(isolation).some((m) => /--allow-run names sh/.test(m)));
  if (isolation.hostRoot && isolation.level !== "bwrap") return skip("root without bwrap");
  const dir = await Deno.makeTempDir();
  try {
    const sandbox = new Sandbox({ isolation });
    const result = await sandbox.run({
      argv: ["python3", "-c", "print('ran')"],
      cwd: dir,
      timeoutMs: 20_000,
    });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.stdout, "ran\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("probeIsolation() uses the compiled launcher when one is built", async () => {
  const path = await launcher();
  if (!path) return;
  const isolation = await probeIsolation("auto");
  assert.equal(isolation.launcher, path);
  assert.ok(!missingGuarantees(isolation).some((m) => /launcher/.test(m)));
  assert.ok(guarantees(isolation).holds.some((h) => h.includes(path)));
});

Deno.test("buildLauncher() makes a launcher that mounts a capped workspace and detaches what is left under a folder (as root)", async () => {
  const path = await launcher();
  if (!path) return;
  if (!await isRoot(path)) return skip("not root");
  if ((await run(path, ["mount-probe"])).code !== 0) return skip("tmpfs mounts are refused here");
  const parent = await Deno.makeTempDir();
  try {
    // A space in the path: mountinfo writes it as \040.
    const dirs = [join(parent, "a b"), join(parent, "c", "d")];
    for (const dir of dirs) {
      await Deno.mkdir(dir, { recursive: true });
      const mounted = await run(path, ["mount-workspace", "65536", "16", dir]);
      assert.equal(mounted.code, 0, mounted.stderr);
      await Deno.writeTextFile(join(dir, "inside"), "x");
    }
    // The cap holds while writing.
    await assert.rejects(Deno.writeFile(join(dirs[0], "big"), new Uint8Array(1024 * 1024)));
    assert.equal((await run(path, ["umount-under", parent])).code, 0);
    for (const dir of dirs) {
      assert.deepEqual([...Deno.readDirSync(dir)], [], `${dir} is still mounted`);
    }
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

/** Whether process `pid` waits for an exclusive lock on folder `dir` (from /proc/locks). */
async function waitsForLock(pid: number, dir: string): Promise<boolean> {
  const out = await new Deno.Command("cat", { args: ["/proc/locks"], stdout: "piped" }).output();
  const waiting = new RegExp(
    `-> FLOCK +ADVISORY +WRITE +${pid} +[0-9a-f]+:[0-9a-f]+:${Deno.statSync(dir).ino} `,
  );
  return waiting.test(new TextDecoder().decode(out.stdout));
}

// An exit's umount-under raced workspace mounts still in flight in the launcher's helper: one that
// landed after it read the mount table stayed mounted in the work root (root-run CI, 1 in 5).
Deno.test("buildLauncher() makes a launcher whose umount-under waits for a mount in flight below the folder and refuses later ones (as root)", async () => {
  const path = await launcher();
  if (!path) return;
  if (!await isRoot(path)) return skip("not root");
  if ((await run(path, ["mount-probe"])).code !== 0) return skip("tmpfs mounts are refused here");
  const parent = realpathSync(await Deno.makeTempDir());
  const [inFlight, late] = [join(parent, "in-flight"), join(parent, "late")];
  const helper = new HelperProcess(path);
  // The shared lock a mount request holds on every folder above its own until mount(2) returns:
  // while the test holds it, the test is a request inside mount(2).
  const request = await Deno.open(parent, { read: true });
  try {
    for (const dir of [inFlight, late]) await Deno.mkdir(dir, { mode: 0o700 });
    await request.lock(false);
    const closing = new Deno.Command(path, {
      args: ["umount-under", parent],
      stdout: "null",
      stderr: "null",
    }).spawn();
    let exited = false;
    const status = closing.status.finally(() => exited = true);
    // Until it waits for the folder's lock, or (a launcher that does not wait) has exited.
    while (!exited && !await waitsForLock(closing.pid, parent)) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const landed = await helper.request("mount-workspace", ["65536", "16", inFlight]);
    assert.ok(landed.success, landed.stderr);
    await request.unlock();
    assert.equal((await status).code, 0);
    assert.ok(!mounted(inFlight), "the mount in flight was left mounted");
    const refused = await helper.request("mount-workspace", ["65536", "16", late]);
    assert.equal(refused.success, false);
    assert.match(refused.stderr, /closed to mounts/);
    assert.ok(!mounted(late), "a mount after the close landed");
  } finally {
    request.close();
    helper.close();
    await run(path, ["umount-under", parent]);
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("buildLauncher() makes a launcher whose hide step leaves the jail only the mounts it needs, and the host all of them (as root)", async () => {
  const path = await launcher();
  if (!path) return;
  if (!await isRoot(path)) return skip("not root");
  if ((await run(path, ["mount-probe"])).code !== 0) return skip("tmpfs mounts are refused here");
  const parent = await Deno.makeTempDir();
  // This episode's workspace (with a mount inside it), its report folder (a space in its name:
  // mountinfo writes \040) and another episode's workspace.
  const [own, inner, report, other] = ["own", "own/inner", "report 1", "other"].map((name) =>
    join(parent, name)
  );
  const mounted: string[] = [];
  try {
    for (const dir of [own, inner, report, other]) {
      await Deno.mkdir(dir, { recursive: true });
      const out = await run(path, ["mount-workspace", "65536", "16", dir]);
      assert.equal(out.code, 0, out.stderr);
      mounted.unshift(dir);
      await Deno.writeTextFile(join(dir, "mark"), dir);
    }
    const points = (text: string) =>
      text.split("\n").map((line) => line.split(" ")[4]?.replaceAll("\\040", " "))
        .filter((point) => point?.startsWith(`${parent}/`));
    const jail = await run(path, [
      "hide",
      `keep:${own}`,
      `keep:${report}`,
      "--",
      "cat",
      "/proc/self/mountinfo",
      `${own}/mark`,
      `${inner}/mark`,
      `${report}/mark`,
    ]);
    assert.equal(jail.code, 0, jail.stderr);
    assert.deepEqual(points(jail.stdout).sort(), [own, inner, report].sort());
    assert.ok(jail.stdout.endsWith(`${own}${inner}${report}`), "a kept mount lost its files");
    // Without it, or on the host afterwards, every workspace is there.
    const host = await run(path, ["--", "cat", "/proc/self/mountinfo", `${other}/mark`]);
    assert.deepEqual(points(host.stdout).sort(), [own, inner, other, report].sort());
    assert.ok(host.stdout.endsWith(other));
    // The host's own mounts go too, but /proc and /dev (not what is mounted inside them).
    const all = (text: string) => text.split("\n").map((line) => line.split(" ")[4]);
    const gone = all(host.stdout).filter((point) =>
      point === "/sys" || point?.startsWith("/sys/") || point?.startsWith("/dev/")
    );
    assert.ok(all(jail.stdout).includes("/proc") && all(jail.stdout).includes("/dev"));
    assert.deepEqual(all(jail.stdout).filter((point) => gone.includes(point)), []);
    // A kept path keeps what it is at, above or inside: not a mount beside it in the same
    // workspace, nor a neighbour whose name it begins.
    const beside = await run(path, [
      "hide",
      `keep:${own}/src`,
      "--",
      "cat",
      "/proc/self/mountinfo",
    ]);
    assert.deepEqual(points(beside.stdout), [own]);
    const prefix = await run(path, [
      "hide",
      `keep:${parent}/oth`,
      "--",
      "cat",
      "/proc/self/mountinfo",
    ]);
    assert.deepEqual(points(prefix.stdout), []);
    const relative = await run(path, ["hide", "keep:own", "--", "true"]);
    assert.equal(relative.code, 125);
    assert.match(relative.stderr, /relative path/);
  } finally {
    for (const dir of mounted) await run(path, ["umount", dir]);
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("buildLauncher() rebuilds a cached launcher that another user owns or may write (as root)", async () => {
  const path = await launcher();
  if (!path) return;
  if (!await isRoot(path)) return skip("not root");
  const cache = await Deno.makeTempDir();
  try {
    const first = (await buildLauncher({ cache })).path!;
    assert.ok(first.startsWith(`${cache}/patchgym/launcher/`), first);
    // Another user's program planted under the launcher's name (a cache under a shared root).
    await Deno.writeTextFile(first, "#!/bin/sh\necho planted\n", { mode: 0o755 });
    await Deno.chown(first, 70001, 70001);
    const again = (await buildLauncher({ cache })).path!;
    assert.equal(again, first);
    assert.equal(Deno.statSync(again).uid, 0);
    assert.equal((await run(again, ["--", "echo", "built"])).stdout, "built\n");
    // Writable by others: replaced too.
    await Deno.chmod(again, 0o777);
    assert.equal((await buildLauncher({ cache })).path, again);
    assert.equal((Deno.statSync(again).mode ?? 0) & 0o022, 0);
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

// A Sandbox.run with cwd "/tmp" as root once gave /tmp, and everything in it, to a sandbox uid.
Deno.test("the launcher and the sh fallback never hand a shared folder (/tmp, /usr, a home) to a sandbox uid (as root)", async () => {
  const path = await launcher();
  if (!path) return;
  if (!await isRoot(path)) return skip("not root");
  const parent = await Deno.makeTempDir();
  const sh = (step: string) => run("sh", ["-c", LAUNCH_SCRIPT, "sh", step, "--", "true"]);
  const direct = (step: string) => run(path, [step, "--", "true"]);
  try {
    const folder = async (name: string, mode: number, owner = 0) => {
      const dir = join(parent, name);
      await Deno.mkdir(dir);
      await Deno.writeTextFile(join(dir, "inside"), "x");
      Deno.chmodSync(dir, mode);
      Deno.chownSync(dir, owner, owner);
      return dir;
    };
    const shared = [
      await folder("sticky", 0o1777),
      await folder("writable", 0o757),
      await folder("group", 0o770),
      await folder("someone", 0o700, 1000),
    ];
    for (const dir of shared) {
      for (const launch of [direct, sh]) {
        const out = await launch(`chown:70003:${dir}`);
        assert.equal(out.code, 125, `${dir} was handed over`);
        assert.match(out.stderr, /step "chown:70003:/);
        assert.notEqual(Deno.statSync(join(dir, "inside")).uid, 70003, `${dir}'s files were`);
        assert.notEqual(Deno.statSync(dir).uid, 70003);
      }
    }
    assert.match((await run(path, [`chown:70003:${shared[0]}`, "--", "true"])).stderr, /shared/);
    // Nor a folder right under / (the launcher stops before it chowns anything there).
    assert.match((await direct("chown:70003:/nonexistent-x")).stderr, /failed|shared/);
    for (const launch of [direct, sh]) {
      assert.equal((await launch("chown:70003:/usr")).code, 125);
    }
    assert.notEqual(Deno.statSync("/usr").uid, 70003);
    // This user's folder, and again once it is the sandbox's.
    const own = await folder("own", 0o755);
    for (const launch of [direct, sh]) {
      const out = await launch(`chown:70003:${own}`);
      assert.equal(out.code, 0, out.stderr);
      assert.equal(Deno.statSync(join(own, "inside")).uid, 70003);
      Deno.chmodSync(own, 0o755);
    }
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("buildLauncher() makes a launcher that chowns a tree deeper than PATH_MAX and never follows links (as root)", async () => {
  const path = await launcher();
  if (!path) return;
  if (!await isRoot(path)) return skip("not root");
  const root = await Deno.makeTempDir();
  const outside = await Deno.makeTempFile();
  try {
    // 600 levels of 9-character names: 6,000 characters, beyond PATH_MAX (4,096).
    const depth = 600;
    const out = await new Deno.Command("python3", {
      args: [
        "-c",
        `import os, sys
os.chdir(sys.argv[1])
for i in range(${depth}):
    os.mkdir("level0000"); os.chdir("level0000")
open("deep.txt", "w").write("x")
os.symlink(sys.argv[2], "link")`,
        root,
        outside,
      ],
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const chowned = await run(path, [`chown:70002:${root}`, "--", "pwd"]);
    assert.equal(chowned.code, 0, chowned.stderr);
    // The program starts where the launcher was started.
    assert.equal(chowned.stdout, "/\n");
    const check = await new Deno.Command("python3", {
      args: [
        "-c",
        `import os, sys
os.chdir(sys.argv[1])
owners = {os.lstat(".").st_uid}
for i in range(${depth}):
    owners.add(os.lstat("level0000").st_uid); os.chdir("level0000")
owners.add(os.lstat("deep.txt").st_uid); owners.add(os.lstat("link").st_uid)
print(sorted(owners))`,
        root,
      ],
      stdout: "piped",
    }).output();
    assert.equal(new TextDecoder().decode(check.stdout).trim(), "[70002]");
    assert.equal(Deno.statSync(outside).uid, 0);
  } finally {
    await new Deno.Command("rm", { args: ["-rf", root] }).output();
    await Deno.remove(outside);
  }
});

Deno.test("SPAWNER_MODULE_READS holds every module the spawner thread loads", async () => {
  // The spawner thread has the permissions of its process, which read these and no other source:
  // a module it imports from elsewhere fails it at its first child, in every command.
  const worker = new URL("../../src/sandbox/_spawner_worker.ts", import.meta.url);
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", worker.href],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(info.success);
  const modules: { specifier: string }[] =
    JSON.parse(new TextDecoder().decode(info.stdout)).modules;
  const files = modules.map((m) => m.specifier).filter((s) => s.startsWith("file:"))
    .map((s) => decodeURIComponent(new URL(s).pathname));
  assert.ok(files.length > 5, files.join("\n"));
  const outside = files.filter((file) =>
    !SPAWNER_MODULE_READS.some((read) => file === read || file.startsWith(`${read}/`))
  );
  assert.deepEqual(outside, []);
});
