/**
 * Red-team attacks on the launcher's hide step (as root with the compiled launcher: before bwrap
 * sets a jail up, its launcher detaches every host mount the jail does not bind), through
 * `Sandbox.run` and whole gradings (`validateTask`), against the same jail without the step
 * (`hideMounts: false`). Layouts the host
 * does not have are made in a mount namespace of a child process (`_hide_layout_worker.ts`), which
 * takes them along when it exits.
 */
import assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Environment } from "../../src/agent/environment.ts";
import { validateTask } from "../../src/rollout/validate.ts";
import { type IsolationInfo, probeIsolation, Sandbox } from "../../src/sandbox/sandbox.ts";
import { removeTree } from "../../src/workspace/remove.ts";
import { writeFiles } from "../_fixtures.ts";

const isolation = await probeIsolation();
const hiding = isolation.level === "bwrap" && isolation.users !== null &&
  isolation.workspaceMounts === true && isolation.hideMounts === true;
const NOT_HIDING =
  "no hide step here (it needs root, bwrap, the compiled launcher and tmpfs mounts)";

function skip(reason: string): void {
  console.warn(`skipped: ${reason}`);
}

function sandbox(hide: boolean): Sandbox {
  const info: IsolationInfo = { ...isolation, hideMounts: hide };
  return new Sandbox({ isolation: info });
}

/** The host's mount table as the launcher's `self` helper reads it: one mount point a line. */
async function hostMounts(): Promise<string[]> {
  const out = await new Deno.Command(isolation.launcher!, { args: ["self"] }).output();
  return new TextDecoder().decode(out.stdout).split("\n").filter((line) => line.startsWith("m "))
    .map((line) =>
      line.split(" ")[5].replace(
        /\\([0-7]{3})/g,
        (_, code) => String.fromCharCode(parseInt(code, 8)),
      )
    );
}

/**
 * Run `fn` in a scratch folder with `dirs` below it, each a capped workspace mount as patchgym
 * makes them; all are unmounted and removed after, and none may be left on the host.
 */
async function withMounts(
  dirs: string[],
  fn: (paths: string[], base: string) => Promise<void>,
): Promise<void> {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-rthide-" }));
  const mount = isolation.level === "bwrap" ? sandbox(false).workspaceMount(1 << 24, 5000) : null;
  const paths = dirs.map((dir) => join(base, dir));
  const mounted: string[] = [];
  try {
    for (const path of paths) {
      await Deno.mkdir(path, { recursive: true });
      await mount?.mount(path);
      mounted.unshift(path);
    }
    await fn(paths, base);
  } finally {
    for (const path of mounted) await mount?.unmount(path);
    const left = (await hostMounts()).filter((point) => point.startsWith(`${base}/`));
    await removeTree(base);
    assert.deepEqual(left, [], "a mount was left on the host");
  }
}

/**
 * The jail's mount points with their options, and what it read, written and listed (the same with
 * the step and without).
 */
const LOOK = `import json, os, sys
seen = {}
seen['points'] = sorted(' '.join(line.split()[4:6]) for line in open('/proc/self/mountinfo'))
for path in sys.argv[1:]:
    try:
        seen[path] = open(path).read()
    except OSError as error:
        seen[path] = type(error).__name__
for place in ('.', sys.argv[1].rsplit('/', 2)[0]):
    try:
        seen['list ' + place] = sorted(os.listdir(place))
    except OSError as error:
        seen['list ' + place] = type(error).__name__
open('written', 'w').write('x')
print(json.dumps(seen, sort_keys=True))
`;

Deno.test("Sandbox.run() with the hide step shows a jail its own workspace and report folder, as without, and no other episode's", async () => {
  // The attack: code in one episode's jail reads or writes another episode's workspace, scoring
  // copy or report folder, all tmpfs mounts beside its own on the host, which the launcher's
  // namespace rebuilds from clones before bwrap binds the jail's places.
  if (!hiding) return skip(NOT_HIDING);
  const names = ["own", ".report-own", "other", "grade-other", ".report-other"];
  await withMounts(names, async ([own, report, ...others]) => {
    for (const dir of [own, report, ...others]) await Deno.writeTextFile(join(dir, "mark"), dir);
    const seen: Record<string, Record<string, unknown>> = {};
    for (const hide of [true, false]) {
      const run = await sandbox(hide).run({
        argv: ["python3", "-c", LOOK, ...[own, report, ...others].map((d) => join(d, "mark"))],
        cwd: own,
        writable: [report],
        timeoutMs: 30_000,
      });
      assert.equal(run.exitCode, 0, run.stderr);
      seen[String(hide)] = JSON.parse(run.stdout);
      await Deno.remove(join(own, "written"));
    }
    assert.deepEqual(seen.true, seen.false);
    assert.equal(seen.true[join(own, "mark")], own);
    assert.equal(seen.true[join(report, "mark")], report);
    for (const other of others) {
      assert.equal(seen.true[join(other, "mark")], "FileNotFoundError");
      const points = (seen.true.points as string[]).map((point) => point.split(" ")[0]);
      assert.ok(!points.includes(other), other);
    }
    // Nothing the jail wrote reached another episode's mount.
    for (const other of others) {
      assert.deepEqual([...Deno.readDirSync(other)].map((entry) => entry.name), ["mark"]);
    }
  });
});

Deno.test("Sandbox.run() with the hide step leaves the host's mount table as it was, however the run ends", async () => {
  // The attack: the launcher detaches the old root (every host mount) in its own namespace and
  // attaches clones at /tmp; were that namespace not a slave of the host's, or a clone left
  // behind, a host mount would vanish or appear. Runs that end every way are tried.
  if (!hiding) return skip(NOT_HIDING);
  await withMounts(["ws", ".report"], async ([ws, report]) => {
    // Other episodes' mounts come and go meanwhile on a shared machine: compare the rest.
    const steady = async () =>
      (await hostMounts()).filter((point) => !/patchgym|\/\.report-|\/grade-/.test(point)).sort();
    const before = await steady();
    const ends = [
      "print('done')",
      "import os; os.kill(os.getpid(), 9)",
      "import time; time.sleep(60)",
      "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(60)\nprint('left one behind')",
      "import ctypes; libc = ctypes.CDLL(None); print(libc.umount2(b'/', 2), libc.mount(b'x', b'/tmp', b'tmpfs', 0, None))",
    ];
    for (const end of ends) {
      const run = await sandbox(true).run({
        argv: ["python3", "-c", end],
        cwd: ws,
        writable: [report],
        timeoutMs: end.includes("sleep") ? 500 : 30_000,
      });
      assert.ok(run.exitCode !== 125, run.stderr);
      assert.deepEqual(await steady(), before, end);
      const ours = (await hostMounts()).filter((point) => point.startsWith(`${ws}/`));
      assert.deepEqual(ours, [], end);
    }
  });
});

Deno.test("Sandbox.run() with the hide step runs as without it in workspaces with odd names, deep trees and planted links", async () => {
  // The attack: names mountinfo escapes (a space, a tab, a newline, a backslash, a literal
  // "\\040"), a long path, and in the workspace links to the root, to a parent, dangling and
  // looping, thousands of files, folders 300 deep and a read-only file with a newline in its
  // name. A hide step that misread any of them would fail the launch (an environment error the
  // agent could aim for) or give the jail another view.
  if (!hiding) return skip(NOT_HIDING);
  const odd = ["sp ace", "tab\there", "new\nline", "back\\slash", "lit\\040eral", "x".repeat(200)];
  await withMounts(odd.map((name) => join(name, `ws ${name}`)), async (workspaces) => {
    for (const ws of workspaces) {
      writeFiles(ws, { "tests/odd\nname.py": "kept\n", "a.py": "x = 1\n" });
      await Deno.symlink("/", join(ws, "root"));
      await Deno.symlink("..", join(ws, "up"));
      await Deno.symlink(join(ws, "gone"), join(ws, "dangling"));
      await Deno.symlink("loop", join(ws, "loop"));
      for (let i = 0; i < 2000; i++) await Deno.writeTextFile(join(ws, `f${i}`), "");
      await Deno.mkdir(join(ws, ...Array(300).fill("d")), { recursive: true });
      const ends: string[] = [];
      for (const hide of [true, false]) {
        const run = await sandbox(hide).run({
          argv: [
            "python3",
            "-c",
            "import os; print(len(os.listdir('.')), open('tests/odd\\nname.py').read(), os.path.realpath('up'), os.getcwd())",
          ],
          cwd: ws,
          readOnly: [join(ws, "tests/odd\nname.py")],
          timeoutMs: 30_000,
        });
        assert.equal(run.exitCode, 0, `${JSON.stringify(ws)}: ${run.stderr}`);
        ends.push(run.stdout);
      }
      assert.equal(ends[0], ends[1], JSON.stringify(ws));
      assert.match(ends[0], /^2007 kept\n/);
    }
  });
});

/** What `_hide_layout_worker.ts LAYOUT` printed, run in a mount namespace of its own. */
async function layout(name: string, ...args: string[]): Promise<Record<string, unknown>> {
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-rthide-layout-" }));
  try {
    const worker = new URL("./_hide_layout_worker.ts", import.meta.url).pathname;
    const out = await new Deno.Command("unshare", {
      args: [
        "--mount",
        "--propagation",
        "private",
        Deno.execPath(),
        "run",
        "-A",
        worker,
        name,
        base,
        ...args,
      ],
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.ok(out.success, stderr);
    return JSON.parse(new TextDecoder().decode(out.stdout));
  } finally {
    await removeTree(base);
  }
}

async function canUnshare(): Promise<boolean> {
  try {
    return (await new Deno.Command("unshare", { args: ["--mount", "true"] }).output()).success;
  } catch {
    return false;
  }
}

Deno.test("Sandbox.run() with the hide step finds what it found without where mounts are shared or /usr, /tmp or the work root are mounts of their own", async () => {
  // The attack (an honest run's): on hosts that mount /usr, /tmp (where the step builds its
  // root) or the work root apart, programs, libraries or the workspace could go missing. Where
  // every mount is shared (systemd makes them so; this machine's are private), what the step's
  // namespace attaches and detaches would reach the host unless it is a slave: the host's table
  // is compared before, while a jail runs and after.
  if (!hiding) return skip(NOT_HIDING);
  if (!await canUnshare()) return skip("no unshare(1) here to make a layout apart");
  for (const name of ["shared", "usr", "tmp", "root"]) {
    const seen = await layout(name);
    assert.equal(seen.hideMounts, true, name);
    assert.deepEqual(seen.hide, seen.plain, name);
    assert.equal((seen.hide as { exitCode: number }).exitCode, 0, JSON.stringify(seen.hide));
    const [before, during, after] = seen.table as string[][];
    if (name === "shared") {
      assert.ok(before.some((line) => line.includes(" shared:")), "not shared");
    }
    assert.deepEqual(during, before, name);
    assert.deepEqual(after, before, name);
  }
});

Deno.test("Sandbox.run() with the hide step binds what a chain of links leads to on the host, not what lies under a mount on its way", async () => {
  // The attack: /etc/nsswitch.conf (bound into every jail) is a link whose chain passes through
  // a mount that neither its path nor its real path is under. The hide step kept only those two,
  // so bwrap (which resolves the chain itself) followed it through the folder under that mount:
  // the jail read a file hidden there ("# secret, under a mount") instead of the host's.
  if (!hiding) return skip(NOT_HIDING);
  if (!await canUnshare()) return skip("no unshare(1) here to make a layout apart");
  const seen = await layout("etc-chain");
  assert.equal(seen.hideMounts, true);
  const stdout = (run: unknown) => (run as { stdout: string }).stdout;
  assert.match(stdout(seen.plain), /^# the host's own\n/);
  assert.equal(stdout(seen.hide), stdout(seen.plain));
});

Deno.test("Sandbox.run() with the hide step does not fail the launch when a mount inside a bound folder goes meanwhile", async () => {
  // The attack (other episodes'): a mount inside a folder the jail binds was unmounted and its
  // folder removed between the launcher's reading of the mount table and its attaching the
  // clone: "step "hide" failed: cannot keep ...: No such file or directory" ended the run as a
  // broken set-up (an environment error), 1 to 2 runs in 150 while four processes churn.
  if (!hiding) return skip(NOT_HIDING);
  if (!await canUnshare()) return skip("no unshare(1) here to make a layout apart");
  const counts = await layout("churn", "150");
  assert.equal(counts.hideMounts, true);
  // bwrap's own failures to remount a mount that went ("exit", with the step or without) are
  // bwrap's race, not the step's: no run may fail to be set up.
  assert.equal(counts["hide-setup"] ?? 0, 0, JSON.stringify(counts));
  assert.equal(counts["plain-setup"] ?? 0, 0, JSON.stringify(counts));
  assert.ok(Number(counts["hide-ok"]) > 0, JSON.stringify(counts));
});

Deno.test("validateTask() grades bundled tasks alike with the hide step (all at once) and without", async () => {
  // The attack (an honest run's): whole gradings (workspace, scoring copy and report folder
  // mounts, hidden tests bound read-only, python, deno and node runners, the reference patch and
  // the unchanged repository) with the step must reach the verdicts they reach without it.
  if (!hiding) return skip(NOT_HIDING);
  const tasksDir = fileURLToPath(new URL("../../tasks", import.meta.url));
  const ids = ["py-median-even", "ts-array-diff-patch", "js-scheduler-fifo-ties"];
  const base = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-rthide-grade-" }));
  try {
    const verdicts: Record<string, unknown[]> = {};
    for (const hide of [true, false]) {
      const env = await Environment.open({
        tasksDir,
        workRoot: join(base, String(hide)),
        probed: { ...isolation, hideMounts: hide },
      });
      // With the step, the tasks run at once: each one's workspace, scoring copy and report
      // folder mounts come and go beside the others' launches, as other episodes' do.
      const found = hide ? await Promise.all(ids.map((id) => validateTask(env, id))) : [];
      for (const [i, id] of ids.entries()) {
        const { status, problems, guard } = found[i] ?? await validateTask(env, id);
        (verdicts[id] ??= []).push({ status, problems, guard });
      }
    }
    for (const id of ids) {
      assert.deepEqual(verdicts[id][0], verdicts[id][1], id);
      assert.equal((verdicts[id][0] as { status: string }).status, "valid", id);
    }
  } finally {
    await removeTree(base);
  }
});
