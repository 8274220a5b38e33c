/**
 * Per-process workspace roots: a dead process's folder is swept, a live one's never; the CLI's
 * processes remove their folder on SIGTERM and Ctrl-C.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { buildLauncher, LAUNCHER_PATH_ENV } from "../../src/sandbox/launcher.ts";
import { claimRoot, sweepDeadRoots, unsafeRoot } from "../../src/workspace/root.ts";
import { launch } from "../../launch.ts";
import { withTempDir } from "../_fixtures.ts";
import {
  childEnv,
  listTree,
  makeWorkRoot,
  patchgymArgv,
  removeWorkRoot,
  ROOT,
  ServeProcess,
} from "../cli/_run.ts";

const ROOT_MODULE = new URL("../../src/workspace/root.ts", import.meta.url).href;

/** A child Deno process that claims a folder under `parent`, prints it, then waits for stdin. */
function spawnOwner(parent: string) {
  const code = `import { claimRoot } from ${JSON.stringify(ROOT_MODULE)};
const owned = claimRoot(${JSON.stringify(parent)});
Deno.writeTextFileSync(owned.dir + "/work.txt", "in flight");
console.log(owned.dir);
for await (const _ of Deno.stdin.readable) { /* wait */ }`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--quiet", code],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  return {
    child,
    async dir(): Promise<string> {
      let text = "";
      while (!text.includes("\n")) {
        const { value, done } = await lines.read();
        if (done) throw new Error("owner process exited early");
        text += value;
      }
      return text.trim();
    },
    async stop(signal: Deno.Signal = "SIGKILL") {
      try {
        child.kill(signal);
      } catch {
        // Already gone.
      }
      await child.status;
      await lines.cancel().catch(() => {});
      await child.stdin.abort().catch(() => {});
    },
  };
}

Deno.test("sweepDeadRoots() removes a dead process's folder and keeps a live one's", async () => {
  const parent = await Deno.makeTempDir({ prefix: "patchgym-root-" });
  const dead = spawnOwner(parent);
  const live = spawnOwner(parent);
  try {
    const deadDir = await dead.dir();
    const liveDir = await live.dir();
    // SIGKILL: no exit handler runs, so only the sweep can clean up after it.
    await dead.stop("SIGKILL");
    assert.equal(existsSync(join(deadDir, "work.txt")), true);
    // Not patchgym's: no mark, or a name claimRoot never makes.
    mkdirSync(join(parent, "proc-1-0123456789ab"));
    mkdirSync(join(parent, "someone-else"));
    writeFileSync(join(parent, "someone-else", ".owner"), "{}");
    assert.deepEqual(sweepDeadRoots(parent, Deno.lstatSync(parent).uid!), [deadDir]);
    assert.equal(existsSync(deadDir), false);
    assert.equal(existsSync(join(liveDir, "work.txt")), true);
    assert.equal(existsSync(join(parent, "proc-1-0123456789ab")), true);
    assert.equal(existsSync(join(parent, "someone-else")), true);
  } finally {
    await dead.stop();
    await live.stop();
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("claimRoot() sweeps first and its release() removes the folder with its contents", async () => {
  const parent = await Deno.makeTempDir({ prefix: "patchgym-root-" });
  const dead = spawnOwner(parent);
  try {
    const deadDir = await dead.dir();
    await dead.stop("SIGKILL");
    const owned = claimRoot(parent);
    assert.deepEqual(owned.swept, [deadDir]);
    assert.match(owned.dir, /\/proc-\d+-[0-9a-f]{12}$/);
    const mark = JSON.parse(Deno.readTextFileSync(join(owned.dir, ".owner")));
    assert.equal(mark.format, "patchgym.owner.v1");
    assert.equal(mark.pid, Deno.pid);
    // This process is alive: another sweep leaves its folder alone.
    assert.deepEqual(sweepDeadRoots(parent, Deno.lstatSync(parent).uid!), []);
    mkdirSync(join(owned.dir, "ws-1/src"), { recursive: true });
    writeFileSync(join(owned.dir, "ws-1/src/a.py"), "x = 1\n");
    owned.release();
    assert.deepEqual([...Deno.readDirSync(parent)], []);
    owned.release();
  } finally {
    await dead.stop();
    await Deno.remove(parent, { recursive: true });
  }
});

// Issue 10: workspaces left by a killed process were never cleaned up.
Deno.test("serveCommand() removes a killed server's workspaces at start-up and keeps a live one's", async () => {
  const work = makeWorkRoot("root-stale");
  const killed = new ServeProcess(["--work-dir", work]);
  const live = new ServeProcess(["--work-dir", work]);
  let next: ServeProcess | null = null;
  try {
    await killed.request({ op: "reset", task_id: "py-median-even" });
    await live.request({ op: "reset", task_id: "py-median-even" });
    const before = listTree(work).filter((p) => /^proc-[^/]+$/.test(p));
    assert.equal(before.length, 2);
    assert.equal(await killed.signal("SIGKILL"), 137);
    // A new server sweeps at start-up: once it answers, the sweep is done.
    next = new ServeProcess(["--work-dir", work]);
    await next.request({ op: "nope" });
    const after = listTree(work).filter((p) => /^proc-[^/]+$/.test(p));
    assert.equal(after.length, 2);
    const liveDirs = after.filter((p) => before.includes(p));
    assert.equal(liveDirs.length, 1, "the live server's folder is kept");
    assert.ok(listTree(join(work, liveDirs[0])).some((p) => p.startsWith("py-median-even-")));
    assert.equal((await live.finish()).code, 0);
    assert.equal((await next.finish()).code, 0);
    assert.deepEqual(listTree(work), []);
  } finally {
    await killed.kill();
    await live.kill();
    await next?.kill();
    removeWorkRoot(work);
  }
});

Deno.test("serveCommand() removes its workspaces on SIGTERM and on Ctrl-C", async () => {
  for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
    const work = makeWorkRoot("root-signal");
    const server = new ServeProcess(["--work-dir", work]);
    try {
      await server.request({ op: "reset", task_id: "py-median-even" });
      await server.request({ op: "reset", task_id: "ts-slugify-max-length" });
      assert.equal(listTree(work).filter((p) => /^proc-[^/]+\/[^/]+-[^/]+$/.test(p)).length, 2);
      assert.equal(await server.signal(signal), code, signal);
      assert.deepEqual(listTree(work), [], signal);
    } finally {
      await server.kill();
      removeWorkRoot(work);
    }
  }
});

Deno.test("rolloutCommand() removes in-flight workspaces on SIGTERM", async () => {
  const work = makeWorkRoot("root-rollout");
  // A model server that answers the pre-run probe, then accepts requests and never answers: the
  // samples stay in flight.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  let probed = false;
  const accepting = (async () => {
    for await (const conn of listener) {
      if (probed) {
        held.push(conn);
        continue;
      }
      probed = true;
      await conn.read(new Uint8Array(65536));
      const body = JSON.stringify({ choices: [{ message: { content: "OK" } }] });
      await conn.write(
        new TextEncoder().encode(
          `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
        ),
      );
      conn.close();
    }
  })();
  const out = `runs/test-root-rollout-${crypto.randomUUID().slice(0, 8)}`;
  const argv = patchgymArgv([
    "rollout",
    "--policy",
    "openai",
    "--base-url",
    `http://127.0.0.1:${listener.addr.port}/v1`,
    "--model",
    "m",
    "--tasks",
    "py-median-even,ts-slugify-max-length",
    "--work-dir",
    work,
    "--out",
    out,
  ]);
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: ROOT,
    clearEnv: true,
    env: childEnv(),
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    // Wait until both samples' workspaces exist (their model requests are then in flight), or
    // the run ended early; no deadline, so a loaded machine only makes this slower.
    let exited = false;
    child.status.then(() => exited = true);
    while (!exited) {
      const workspaces = existsSync(work)
        ? listTree(work).filter((p) => /^proc-[^/]+\/[^/.]+-[^/]+$/.test(p))
        : [];
      if (workspaces.length === 2 && held.length === 2) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(held.length, 2, "both samples asked the model");
    child.kill("SIGTERM");
    assert.equal((await child.status).code, 143);
    assert.deepEqual(listTree(work), []);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
    await child.status;
    listener.close();
    await accepting.catch(() => {});
    for (const conn of held) conn.close();
    removeWorkRoot(work);
    Deno.removeSync(join(ROOT, out), { recursive: true });
  }
});

/** The compiled launcher when it runs as root and may mount a tmpfs here, else null (with a note). */
async function mountingLauncher(): Promise<string | null> {
  const skip = (why: string) => (console.warn(`skipped: ${why}`), null);
  const { path, reason } = await buildLauncher();
  if (!path) return skip(`no compiled launcher: ${reason}`);
  const run = (args: string[]) =>
    new Deno.Command(path, { args, stdout: "piped", stderr: "null" }).output();
  if (new TextDecoder().decode((await run(["uid"])).stdout).trim() !== "0") return skip("not root");
  if (!(await run(["mount-probe"])).success) return skip("tmpfs mounts are refused here");
  return path;
}

/** The mount points under `dir`, from the launcher's view of mountinfo (Deno reads no /proc). */
async function mountsUnder(launcher: string, dir: string): Promise<string[]> {
  const out = await new Deno.Command(launcher, { args: ["self"], stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout).split("\n")
    .filter((line) => line.startsWith("m "))
    .map((line) => line.split(" ")[5])
    .filter((point) => point?.startsWith(`${dir}/`));
}

// An uncaught error or an unhandled rejection ends a Deno process without the "unload" event, so a
// crashing run left its whole folder (workspaces, scoring copies, mounts) until the next start-up.
Deno.test("claimRoot() removes the folder when the process dies of an uncaught error or rejection", async () => {
  for (
    const crash of [
      "setTimeout(() => { throw new Error('crash'); }, 0);",
      "Promise.reject(new Error('crash'));",
    ]
  ) {
    const parent = await Deno.makeTempDir({ prefix: "patchgym-crash-" });
    try {
      const code = `import { claimRoot } from ${JSON.stringify(ROOT_MODULE)};
const owned = claimRoot(${JSON.stringify(parent)});
Deno.mkdirSync(owned.dir + "/py-median-even-1");
Deno.writeTextFileSync(owned.dir + "/py-median-even-1/work.txt", "in flight");
${crash}`;
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["eval", "--quiet", code],
        stdout: "null",
        stderr: "piped",
      }).output();
      assert.equal(out.code, 1, crash);
      assert.match(new TextDecoder().decode(out.stderr), /crash/);
      assert.deepEqual(listTree(parent), [], crash);
    } finally {
      await Deno.remove(parent, { recursive: true });
    }
  }
});

// Root-run CI failed once in five runs: a workspace mount still in flight in the launcher's helper
// when SIGTERM came landed after the exit's unmount, and its tmpfs stayed in the work root.
Deno.test("exitOnSignal() leaves nothing mounted when a workspace mount lands after the exit's unmount (as root)", async () => {
  const launcher = await mountingLauncher();
  if (!launcher) return;
  const parent = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-exit-mount-" }));
  const fixture = new URL("./_exit_mount_fixture.ts", import.meta.url).pathname;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-run", "--allow-env", fixture, parent],
    env: { [LAUNCHER_PATH_ENV]: launcher },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let printed = "";
  try {
    while (!printed.includes("\n")) {
      const { value, done } = await lines.read();
      if (done) throw new Error("the fixture exited early");
      printed += value;
    }
    assert.match(printed, /\/proc-\d+-[0-9a-f]+\n/);
    child.kill("SIGTERM");
    assert.equal((await child.status).code, 143);
    for (let read = await lines.read(); !read.done; read = await lines.read()) {
      printed += read.value;
    }
    // The late mount was tried, and refused for the claim's exit (not for want of its folder).
    assert.match(printed, /late mount: (ok|refused: .*closed to mounts)/);
    assert.deepEqual(await mountsUnder(launcher, parent), [], printed);
    assert.deepEqual(listTree(parent), [], printed);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
    await child.status;
    await lines.cancel().catch(() => {});
    await new Deno.Command(launcher, { args: ["umount-under", parent] }).output();
    await Deno.remove(parent, { recursive: true });
  }
});

/** Whether this process runs as root (through `id -u`: `Deno.uid()` needs --allow-sys). */
async function asRoot(): Promise<boolean> {
  const { stdout } = await new Deno.Command("id", { args: ["-u"], stdout: "piped" }).output();
  return new TextDecoder().decode(stdout).trim() === "0";
}

/**
 * The attack on a root another user may write, played out: root claims `parent` (`claim`, by
 * default `claimRoot(parent)`); where it took it, the other user makes its `move` (by default root's
 * folder moved aside) and puts a link to a folder of root's in place of root's folder, and root's
 * release runs. Returns what claimRoot() threw ("" when it took the root) and whether the
 * release emptied the folder the link led to.
 */
function releaseThroughLink(
  base: string,
  parent: string,
  options: { claim?: () => ReturnType<typeof claimRoot>; move?: (dir: string) => void } = {},
): { refusal: string; emptied: boolean } {
  const victim = join(base, "victim");
  mkdirSync(victim);
  writeFileSync(join(victim, "precious"), "x");
  let owned: ReturnType<typeof claimRoot>;
  try {
    owned = (options.claim ?? (() => claimRoot(parent)))();
  } catch (error) {
    return { refusal: String(error), emptied: false };
  }
  (options.move ?? ((dir) => Deno.renameSync(dir, join(parent, "moved"))))(owned.dir);
  Deno.symlinkSync(victim, owned.dir);
  owned.release();
  return { refusal: "", emptied: !existsSync(join(victim, "precious")) };
}

/** A link to `target` made by another user (uid 65534) in a sticky folder anyone may write. */
function theirLink(base: string, target: string): string {
  const open = join(base, "open");
  mkdirSync(open);
  Deno.chmodSync(open, 0o1777);
  const link = join(open, "pg");
  Deno.symlinkSync(target, link);
  new Deno.Command("chown", { args: ["-h", "65534:65534", link] }).outputSync();
  return link;
}

Deno.test("claimRoot() refuses a shared root that another user owns, who could swap this process's folder for a link (as root)", async () => {
  // The attack: another user makes /tmp/patchgym before root's patchgym does. As the folder's
  // owner it may rename what is in it: it moves root's folder away and puts a link to any folder
  // in its place, and root's release at exit empties that folder (its workspaces went there too).
  if (!await asRoot()) return console.warn("skipped: needs root to give the root to another user");
  await withTempDir((base) => {
    const parent = join(base, "shared");
    mkdirSync(parent);
    Deno.chownSync(parent, 65534, 65534);
    const { refusal, emptied } = releaseThroughLink(base, parent);
    assert.equal(emptied, false, "the release emptied the folder the link led to");
    assert.notEqual(refusal, "", "claimed a folder in another user's root");
    assert.match(refusal, new RegExp(`${parent} belongs to uid 65534`));
    assert.match(refusal, /--work-dir/);
    // Nothing of this process's was left in it.
    assert.deepEqual([...Deno.readDirSync(parent)], []);
  });
});

Deno.test("claimRoot() takes a root only its owner (or root) may write, or a sticky one such as /tmp", async () => {
  await withTempDir((base) => {
    // Writable by anyone and not sticky: anyone could move this process's folder.
    const open = join(base, "open");
    mkdirSync(open);
    Deno.chmodSync(open, 0o777);
    assert.throws(
      () => claimRoot(open),
      /open may be written by others \(mode 777\) and is not sticky/,
    );
    assert.deepEqual([...Deno.readDirSync(open)], []);
    // Inside such a folder: the same, for the folder above.
    const inner = join(open, "inner");
    mkdirSync(inner);
    assert.throws(() => claimRoot(inner), /open may be written by others/);
    // Sticky, as /tmp: others may make folders of their own there, but not move this one's.
    const sticky = join(base, "sticky");
    mkdirSync(sticky);
    Deno.chmodSync(sticky, 0o1777);
    const owned = claimRoot(sticky);
    assert.ok(existsSync(owned.dir));
    owned.release();
    // Its own, writable by its owner only: the usual case.
    const own = join(base, "own");
    const claimed = claimRoot(own);
    assert.ok(existsSync(claimed.dir));
    claimed.release();
  });
});

Deno.test("claimRoot() says whose a root it cannot write is, and to name another (not as root)", async () => {
  if (await asRoot()) return console.warn("skipped: root may write any folder");
  await withTempDir((base) => {
    const closed = join(base, "closed");
    mkdirSync(closed);
    Deno.chmodSync(closed, 0o555);
    try {
      assert.throws(
        () => claimRoot(closed),
        /Cannot make this process's folder in .*closed.*: Permission denied.*--work-dir/,
      );
    } finally {
      Deno.chmodSync(closed, 0o755);
    }
  });
});

Deno.test("sweepDeadRoots() leaves a dead process's folder that another user owns (as root)", async () => {
  if (!await asRoot()) return console.warn("skipped: needs root to give a folder to another user");
  await withTempDir(async (base) => {
    const owner = spawnOwner(base);
    const dir = await owner.dir();
    await owner.stop();
    // Its owner's to remove: root never walks a tree another user may change under it.
    Deno.chownSync(dir, 65534, 65534);
    assert.deepEqual(sweepDeadRoots(base, 0), []);
    assert.ok(existsSync(dir));
  });
});

Deno.test("claimRoot() refuses a root reached through another user's link (as root)", async () => {
  // The attack: another user's link, in a folder anyone may write, leads root's root where that
  // user chose, and was read again after the check (the sweep, `--keep-workspaces`' folder).
  if (!await asRoot()) return console.warn("skipped: needs root to give a link to another user");
  await withTempDir((base) => {
    // In a sticky folder, as /tmp: the folder holding the link is not what lets the link in.
    const safe = join(base, "safe");
    mkdirSync(safe, { mode: 0o700 });
    assert.throws(() => claimRoot(theirLink(base, safe)), /is a link of uid 65534/);
    assert.deepEqual([...Deno.readDirSync(safe)], []);
  });
});

Deno.test("unsafeRoot() takes a folder its user's own group may write, and no other group's", async () => {
  await withTempDir((base) => {
    const shared = join(base, "shared");
    mkdirSync(shared);
    Deno.chmodSync(shared, 0o775);
    const info = Deno.lstatSync(shared);
    // A user (not root) with umask 002 and a group of the user's own (Debian's default for people).
    const uid = info.uid === 0 ? 4242 : info.uid!;
    assert.equal(unsafeRoot(shared, { uid, gid: info.gid! }), null);
    const refused = /shared may be written by others \(mode 775\) and is not sticky/;
    assert.match(unsafeRoot(shared, { uid, gid: info.gid! + 1 }) ?? "", refused);
    // Root's group is no one's own, and its group bits may be an ACL's mask over another user.
    if (info.uid === 0) assert.match(unsafeRoot(shared, { uid: 0, gid: info.gid! }) ?? "", refused);
  });
});

Deno.test("launch() refuses a work root inside another user's folder before main.ts starts (as root)", async () => {
  // The orchestrator may look at its work root only from the root down (its --allow-read names
  // the root): the folders above it are checked here, where everything may be read.
  if (!await asRoot()) return console.warn("skipped: needs root to give a folder to another user");
  await withTempDir(async (base) => {
    const theirs = join(base, "theirs");
    mkdirSync(theirs);
    Deno.chownSync(theirs, 65534, 65534);
    const work = join(theirs, "work");
    assert.equal(await launch(["doctor", "--work-dir", work]), 1);
    assert.equal(existsSync(work), false, "main.ts started and made the root");
  });
});

Deno.test("unsafeRoot() refuses a path whose folder above the root is missing, which anyone could make in between", async () => {
  // The attack: `--work-dir /tmp/a/w` with /tmp/a missing passed launch.ts's check; another user
  // made /tmp/a (sticky /tmp lets anyone) before main.ts made w, which cannot look at /tmp/a, and
  // root's release at exit emptied the folder a link put in place of root's folder led to.
  await withTempDir((base) => {
    const user = { uid: Deno.lstatSync(base).uid! };
    assert.match(unsafeRoot(join(base, "a", "w"), user) ?? "", /a does not exist: make it first/);
    // The root itself may be missing: this process makes it, and then may look at it.
    assert.equal(unsafeRoot(join(base, "w"), user), null);
  });
});

Deno.test("unsafeRoot() follows links one step at a time: root's link through another user's link is refused (as root)", async () => {
  // The attack: root's link leads to another user's link, which a whole-path resolution passed
  // over; that user may point it elsewhere once the check is done.
  if (!await asRoot()) return console.warn("skipped: needs root to give a link to another user");
  await withTempDir((base) => {
    const safe = join(base, "safe");
    mkdirSync(safe, { mode: 0o755 });
    theirLink(base, safe);
    const ours = join(base, "pg");
    Deno.symlinkSync("open/pg", ours);
    assert.match(
      unsafeRoot(join(ours, "w"), { uid: 0, gid: 0 }) ?? "",
      /pg is a link of uid 65534/,
    );
    // A dangling link says so, and does not throw.
    Deno.symlinkSync(join(base, "gone"), join(base, "dangling"));
    assert.match(unsafeRoot(join(base, "dangling", "w"), { uid: 0 }) ?? "", /gone does not exist/);
  });
});

Deno.test("launch() works in a root reached through this user's own link (a home under /data)", async () => {
  // Honest: main.ts works in the root's real path, which its flags now name too.
  await withTempDir(async (base) => {
    mkdirSync(join(base, "data", "home"), { recursive: true });
    Deno.symlinkSync(join(base, "data", "home"), join(base, "home"));
    assert.equal(await launch(["doctor", "--work-dir", join(base, "home", "pg")]), 0);
  });
});

Deno.test("claimRoot() does not take its user from its new folder, which the root's owner may swap for one of theirs (as root)", async () => {
  // The attack (won end to end against `deno task patchgym doctor --work-dir /tmp/x/pg`, /tmp/x
  // sticky, pg missing at launch.ts's check, in 2 of 4 runs): another user made pg once main.ts
  // started, watched it (inotify) and swapped root's new folder for one of their own
  // (RENAME_EXCHANGE) before claimRoot() looked at it. claimRoot() checked the root for that
  // user, who owns it, and took it; a link in place of the folder let root's release empty the
  // folder it led to. The swap is done here in mkdirSync.
  if (!await asRoot()) return console.warn("skipped: needs root to give the root to another user");
  await withTempDir((base) => {
    const parent = join(base, "shared");
    mkdirSync(parent);
    Deno.chownSync(parent, 65534, 65534);
    const mkdir = Deno.mkdirSync;
    Deno.mkdirSync = (path: string | URL, options?: Deno.MkdirOptions) => {
      mkdir(path, options);
      if (basename(String(path)).startsWith("proc-")) {
        Deno.renameSync(path, join(parent, "roots-folder"));
        mkdir(path);
        Deno.chownSync(path, 65534, 65534);
      }
    };
    const claim = () => {
      try {
        return claimRoot(parent);
      } finally {
        Deno.mkdirSync = mkdir;
      }
    };
    const { refusal, emptied } = releaseThroughLink(base, parent, { claim });
    assert.equal(emptied, false, "the release emptied the folder the link led to");
    assert.notEqual(refusal, "", "claimed a folder in another user's root");
    // Refused before anything was made in it.
    assert.deepEqual([...Deno.readDirSync(parent)], []);
  });
});

Deno.test("unsafeRoot() says a file on the way, not a stack trace", async () => {
  await withTempDir((base) => {
    writeFileSync(join(base, "file"), "");
    assert.match(
      unsafeRoot(join(base, "file", "w"), { uid: Deno.lstatSync(base).uid! }) ?? "",
      /file is not a folder/,
    );
  });
});

Deno.test("claimRoot() refuses a root whose ACL lets another user write it, though its mode shows only root's group (as root)", async () => {
  // The attack: an admin gave another user write on a root:root folder with an ACL (`setfacl -m
  // u:ci:rwx /srv/work`); `ls -l` shows drwxrwxr-x+ root root, the group bits being the ACL's
  // mask, and root's own group passed. That user could move root's root away and put a link in
  // place of its folder, and root's release emptied what it led to.
  if (!await asRoot()) return console.warn("skipped: needs root to set another user's ACL");
  await withTempDir((base) => {
    const parent = join(base, "acl");
    mkdirSync(parent, { mode: 0o755 });
    // system.posix_acl_access: user::rwx user:65534:rwx group::r-x mask::rwx other::r-x
    const entry = (tag: number, perm: number, id = 0xffffffff) => {
      const bytes = new DataView(new ArrayBuffer(8));
      bytes.setUint16(0, tag, true);
      bytes.setUint16(2, perm, true);
      bytes.setUint32(4, id, true);
      return [...new Uint8Array(bytes.buffer)];
    };
    const acl = [
      [2, 0, 0, 0],
      entry(1, 7),
      entry(2, 7, 65534),
      entry(4, 5),
      entry(0x10, 7),
      entry(0x20, 5),
    ].flat().map((n) => n.toString(16).padStart(2, "0")).join("");
    const set = new Deno.Command("python3", {
      args: [
        "-c",
        "import os, sys; os.setxattr(sys.argv[1], 'system.posix_acl_access', bytes.fromhex(sys.argv[2]))",
        parent,
        acl,
      ],
      stderr: "null",
    }).outputSync();
    if (!set.success) return console.warn("skipped: no POSIX ACLs here");
    const shared = join(parent, "pg");
    // What the other user may do (it may write `parent`): move root's root away, make its own.
    const move = () => {
      Deno.renameSync(shared, join(parent, "moved"));
      mkdirSync(shared);
    };
    const { refusal, emptied } = releaseThroughLink(base, shared, { move });
    assert.equal(emptied, false, "the release emptied the folder the link led to");
    assert.notEqual(
      refusal,
      "",
      "claimed a folder in a root another user may write through an ACL",
    );
  });
});
