/**
 * Attacks on the prepared programs folder (issue 29: one bind per destination folder instead of one
 * per program), run as root and as an unprivileged user (CI runs this file both ways): writing into
 * it from the jail, swapping a program in it between build and use, seeing a program that is not
 * allowlisted, and a folder built before the host's program changed.
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { ownId } from "../../src/own_id.ts";
import { describeMounts, findProgram, mountsFor, planMounts } from "../../src/sandbox/mounts.ts";
import {
  buildProgramFolder,
  checkProgramFolder,
  placeholder,
  programEntries,
  type ProgramEntry,
  programEntry,
  useProgramFolder,
} from "../../src/sandbox/program_folder.ts";
import { ALLOWED_PROGRAMS, RUNNER_PROGRAMS } from "../../src/sandbox/programs.ts";
import { probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";
import { withTempDir } from "../_fixtures.ts";

function skip(reason: string): void {
  console.warn(`skipped: ${reason}`);
}

const uid = ownId("u")!;
const isolation = await probeIsolation();
const jailed = isolation.level === "bwrap";

/**
 * A scratch folder (mode 0755, so only the prepared folder's own modes keep another uid out) with
 * two fake host programs, `host/true` and `host/echo` (copies of the real ones), and a cache root.
 */
async function withHost(
  fn: (paths: { cache: string; host: string; entries: () => ProgramEntry[] }) => Promise<void>,
): Promise<void> {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-programs-" }));
  try {
    await Deno.chmod(base, 0o755);
    const host = join(base, "host");
    await Deno.mkdir(host, { mode: 0o755 });
    for (const name of ["true", "echo"]) {
      await Deno.copyFile(findProgram(name)!.real, join(host, name));
      await Deno.chmod(join(host, name), 0o755);
    }
    const entries = () => [
      programEntry("/usr/bin/echo", join(host, "echo")),
      programEntry("/usr/bin/true", join(host, "true")),
      placeholder("/usr/local/bin/deno"),
    ];
    await fn({ cache: join(base, "cache"), host, entries });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

async function built(cache: string, entries: ProgramEntry[]): Promise<string> {
  const found = await buildProgramFolder(entries, { cache, uid });
  assert.ok(found.folder, found.reason);
  return found.folder.folder;
}

Deno.test("buildProgramFolder() builds once a folder of exactly the programs, writable only by its owner", async () => {
  await withHost(async ({ cache, host, entries }) => {
    const first = await buildProgramFolder(entries(), { cache, uid });
    assert.ok(first.folder, first.reason);
    const { folder, dests, paths } = first.folder;
    assert.deepEqual(dests, ["/usr/bin", "/usr/local/bin"]);
    assert.deepEqual(paths, ["/usr/bin/echo", "/usr/bin/true", "/usr/local/bin/deno"]);
    assert.deepEqual([...Deno.readDirSync(join(folder, "usr/bin"))].map((e) => e.name).sort(), [
      "echo",
      "true",
    ]);
    for (const name of ["true", "echo"]) {
      const file = join(folder, "usr/bin", name);
      assert.deepEqual(Deno.readFileSync(file), Deno.readFileSync(join(host, name)));
      assert.equal(Deno.statSync(file).mode! & 0o022, 0);
    }
    assert.equal(Deno.statSync(join(folder, "usr/local/bin/deno")).size, 0);
    for (const dir of [dirname(folder), folder, join(folder, "usr"), join(folder, "usr/bin")]) {
      const info = Deno.statSync(dir);
      assert.equal(info.uid, uid, dir);
      assert.equal(info.mode! & 0o022, 0, dir);
    }
    // Found again, not built again.
    const inode = Deno.statSync(folder).ino;
    assert.equal(await built(cache, entries()), folder);
    assert.equal(Deno.statSync(folder).ino, inode);
  });
});

Deno.test("checkProgramFolder() refuses a folder whose programs were swapped, added to or made writable", async () => {
  // The attack: a program in the cache replaced between build and use, or a program that is not
  // allowlisted slipped into the folder the jail shows as /usr/bin.
  await withHost(async ({ cache, entries }) => {
    const tampers: [string, (folder: string) => void][] = [
      [
        "an extra program",
        (f) => Deno.copyFileSync(join(f, "usr/bin/true"), join(f, "usr/bin/bash")),
      ],
      ["a symlink in place of a program", (f) => {
        Deno.removeSync(join(f, "usr/bin/true"));
        Deno.symlinkSync(findProgram("ls")!.real, join(f, "usr/bin/true"));
      }],
      ["another program in place of one", (f) => {
        Deno.removeSync(join(f, "usr/bin/true"));
        Deno.copyFileSync(findProgram("ls")!.real, join(f, "usr/bin/true"));
      }],
      ["a program removed", (f) => Deno.removeSync(join(f, "usr/bin/echo"))],
      ["a folder writable by others", (f) => Deno.chmodSync(join(f, "usr/bin"), 0o777)],
      ["a placeholder that holds a program", (f) => {
        Deno.writeFileSync(
          join(f, "usr/local/bin/deno"),
          Deno.readFileSync(join(f, "usr/bin/true")),
        );
      }],
      ["an edited manifest", (f) => {
        const manifest = join(f, "manifest.json");
        Deno.writeTextFileSync(manifest, Deno.readTextFileSync(manifest).replace("echo", "ech0"));
      }],
    ];
    if (uid === 0) {
      tampers.push([
        "a folder of another user",
        (f) => Deno.chownSync(join(f, "usr/bin"), 65534, 65534),
      ]);
      tampers.push([
        "a manifest of another user",
        (f) => Deno.chownSync(join(f, "manifest.json"), 65534, 65534),
      ]);
    }
    for (const [what, tamper] of tampers) {
      const folder = await built(cache, entries());
      assert.equal(checkProgramFolder(folder, entries(), uid).problem, null);
      tamper(folder);
      const check = useProgramFolder(folder, entries(), uid);
      assert.equal(check.folder, null, `${what} was not noticed`);
      // Built again in its place, and good again.
      assert.equal(await built(cache, entries()), folder, what);
      assert.equal(checkProgramFolder(folder, entries(), uid).problem, null, what);
    }
  });
});

Deno.test("buildProgramFolder() makes a folder another uid can neither write nor swap a program in (as root)", async () => {
  // The attack: a program swapped in the cache by another user between build and use. Every
  // folder above it is open to that user here, so only the folder's own modes stand in the way.
  if (uid !== 0) return skip("not root: no other uid to try as");
  const setpriv = findProgram("setpriv");
  if (!setpriv) return skip("setpriv is not installed");
  await withHost(async ({ cache, entries }) => {
    const folder = await built(cache, entries());
    await Deno.chmod(join(cache, ".."), 0o755);
    for (const dir of [cache, join(cache, "patchgym")]) await Deno.chmod(dir, 0o755);
    const bin = join(folder, "usr/bin");
    const script = `import os, shutil
bin = ${JSON.stringify(bin)}
tries = [
    lambda: open(os.path.join(bin, 'true'), 'r+b').write(b'x'),
    lambda: open(os.path.join(bin, 'bash'), 'wb').write(b'x'),
    lambda: os.unlink(os.path.join(bin, 'true')),
    lambda: os.rename(os.path.join(bin, 'echo'), os.path.join(bin, 'true')),
    lambda: os.chmod(os.path.join(bin, 'true'), 0o777),
    lambda: os.rename(bin, bin + '.old'),
    lambda: os.rename(${JSON.stringify(folder)}, ${JSON.stringify(folder)} + '.old'),
    lambda: shutil.copytree(bin, os.path.join(${JSON.stringify(dirname(folder))}, 'x')),
]
for i, attempt in enumerate(tries):
    try:
        attempt()
        print('done', i)
    except OSError:
        pass`;
    const out = await new Deno.Command(setpriv.path, {
      args: [
        "--reuid=65534",
        "--regid=65534",
        "--clear-groups",
        findProgram("python3")!.real,
        "-c",
        script,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    assert.equal(new TextDecoder().decode(out.stdout), "");
    assert.equal(checkProgramFolder(folder, entries(), uid).problem, null);
  });
});

Deno.test("buildProgramFolder() refuses a cache under a folder another user may rename things in", async () => {
  // The attack: whoever may write a folder above the cache can rename the programs folder away
  // and put a tree of their own in its place after it was checked.
  await withHost(async ({ cache, entries }) => {
    await Deno.mkdir(cache, { mode: 0o755 });
    await Deno.chmod(cache, 0o777);
    const found = await buildProgramFolder(entries(), { cache, uid });
    assert.equal(found.folder, null);
    assert.match(found.reason!, /is writable by others/);
    // With the sticky bit (as /tmp), others cannot rename what is not theirs.
    await Deno.chmod(cache, 0o1777);
    assert.ok((await buildProgramFolder(entries(), { cache, uid })).folder);
    // Named through a symlink: the real path is checked and bound.
    const link = `${cache}.link`;
    await Deno.symlink(cache, link);
    const through = await buildProgramFolder(entries(), { cache: link, uid });
    assert.ok(through.folder?.folder.startsWith(`${cache}/`), through.reason);
  });
});

Deno.test("buildProgramFolder() never hands out a folder built before a host program changed", async () => {
  // The attack (or an upgrade): the host's program changed after the folder was built; the jail
  // must show the program as it is now, never the old copy.
  await withHost(async ({ cache, host, entries }) => {
    const old = await built(cache, entries());
    // Replaced by another file (an upgrade renames a new file over the old one).
    await Deno.copyFile(findProgram("ls")!.real, join(host, "true.new"));
    await Deno.rename(join(host, "true.new"), join(host, "true"));
    const check = useProgramFolder(old, entries(), uid);
    assert.equal(check.folder, null);
    assert.match(check.reason!, /does not list the programs found on this machine now/);
    const fresh = await built(cache, entries());
    assert.notEqual(fresh, old);
    assert.deepEqual(
      Deno.readFileSync(join(fresh, "usr/bin/true")),
      Deno.readFileSync(join(host, "true")),
    );
    // Changed in place: same inode, new modification time.
    await Deno.utime(join(host, "echo"), new Date(), new Date(Date.now() + 5_000));
    assert.equal(useProgramFolder(fresh, entries(), uid).folder, null);
    assert.notEqual(await built(cache, entries()), fresh);
  });
});

Deno.test("mountsFor() binds each program on its own when a run's file has no place in a programs folder", () => {
  const entries = programEntries();
  const dests = [...new Set(entries.map((e) => dirname(e.path)))];
  const plan = planMounts([], {
    folder: { folder: "/nonexistent/programs", dests, paths: entries.map((e) => e.path), own: [] },
  });
  assert.ok(plan.programs);
  const folderBinds = (mounts: typeof plan.mounts) =>
    mounts.filter((m) => m.why.startsWith("programs folder")).map((m) => m.dest);
  assert.deepEqual(folderBinds(mountsFor(plan, ["/opt/deno/deno"])), dests);
  // A deno executable inside a prepared folder without its placeholder: no place to bind it.
  const inside = join(dests[0], "deno");
  const perProgram = mountsFor(plan, [inside]);
  assert.deepEqual(folderBinds(perProgram), []);
  assert.deepEqual(
    perProgram.filter((m) => m.why === "program").map((m) => m.dest),
    entries.map((e) => e.path).sort(),
  );
});

/** The allowlisted programs found on the children's PATH, as the jail should show them. */
function allowlistedIn(dir: string): string[] {
  return [...ALLOWED_PROGRAMS, ...RUNNER_PROGRAMS]
    .filter((p) => p !== "deno" && findProgram(p)?.path === join(dir, p))
    .sort();
}

Deno.test("Sandbox.run() shows exactly the allowlisted programs in each program folder", async () => {
  // The attack: a program that is not allowlisted (bash, curl, setpriv) visible, and runnable by
  // path, in the jail.
  if (!jailed) return skip("no bwrap here");
  assert.ok(isolation.mounts?.programs, isolation.mounts?.programsReason);
  const fallback = {
    ...isolation,
    mounts: planMounts(
      isolation.mounts.mounts.filter((m) => m.why === "python3 library").map((m) => m.source),
      { folder: null, reason: "test" },
    ),
  };
  await withTempDir(async (ws) => {
    for (const info of [isolation, fallback]) {
      for (const dest of isolation.mounts!.programs!.dests) {
        const result = await new Sandbox({ isolation: info }).run({
          argv: ["ls", "-A", dest],
          cwd: ws,
          timeoutMs: 20_000,
        });
        assert.equal(result.exitCode, 0, result.stderr);
        assert.deepEqual(result.stdout.trim().split("\n"), allowlistedIn(dest));
      }
    }
  });
});

Deno.test("Sandbox.run() cannot change the programs folder from the jail", async () => {
  // The attack: code in the jail rewrites /usr/bin/python3 (the grader's next run would start it),
  // adds a program, or removes one.
  if (!jailed) return skip("no bwrap here");
  const folder = isolation.mounts?.mounts.find((m) => m.why.startsWith("programs folder"));
  assert.ok(folder, isolation.mounts?.programsReason);
  const before = Deno.readFileSync(join(folder.source, "true"));
  await withTempDir(async (ws) => {
    const result = await new Sandbox({ isolation }).run({
      argv: [
        "python3",
        "-c",
        `import os
bin = ${JSON.stringify(folder.dest)}
tries = [
    lambda: open(os.path.join(bin, 'true'), 'r+b').write(b'x'),
    lambda: open(os.path.join(bin, 'bash'), 'wb').write(b'x'),
    lambda: os.unlink(os.path.join(bin, 'true')),
    lambda: os.rename(os.path.join(bin, 'ls'), os.path.join(bin, 'true')),
    lambda: os.chmod(os.path.join(bin, 'true'), 0o777),
    lambda: os.utime(os.path.join(bin, 'true')),
    lambda: os.symlink('/tmp', os.path.join(bin, 'x')),
]
for i, attempt in enumerate(tries):
    try:
        attempt()
        print('done', i)
    except OSError:
        pass`,
      ],
      cwd: ws,
      timeoutMs: 20_000,
    });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.stdout, "");
  });
  assert.deepEqual(Deno.readFileSync(join(folder.source, "true")), before);
  const entries = programEntries([Deno.execPath()]);
  assert.equal(
    checkProgramFolder(folder.source.slice(0, -folder.dest.length), entries, uid)
      .problem,
    null,
  );
});

Deno.test("describeMounts() names the programs folder, or why each program is bound on its own", () => {
  if (!jailed) return skip("no bwrap here");
  const lines = describeMounts(isolation.mounts!);
  assert.ok(
    lines.some((l) =>
      /^ro {3}\/usr\/bin <- \S+\/usr\/bin \(programs folder: .*\bpython3\b/.test(l)
    ),
    lines.join("\n"),
  );
  const fallback = describeMounts(planMounts([], { folder: null, reason: "it was tampered with" }));
  assert.ok(fallback.includes("(each program bound on its own: it was tampered with)"));
  assert.ok(
    fallback.some((l) => /^ro {3}\/usr\/bin\/ls .*\(program\)$/.test(l)),
    fallback.join("\n"),
  );
});
