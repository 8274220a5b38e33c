import assert from "node:assert/strict";
import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { defaultWorkRoot, Environment, SHARED_WORK_ROOT } from "../../src/agent/environment.ts";
import { ownId } from "../../src/own_id.ts";
import { claimRoot } from "../../src/workspace/root.ts";
import { measureTree } from "../../src/workspace/limits.ts";
import { REPORT_FOLDER_BYTES, REPORT_FOLDER_ENTRIES } from "../../src/sandbox/test_runner.ts";
import { runTestsTool } from "../../src/tools/run_tests.ts";
import { toolContext } from "../../src/tools/types.ts";
import { mountsUnder } from "../_fixtures.ts";
import { call, okOutput } from "../tools/_call.ts";

const TASKS = new URL("../../tasks", import.meta.url).pathname;

async function withEnvironment(fn: (env: Environment, root: string) => Promise<void>) {
  const root = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-env-" }));
  try {
    await fn(await Environment.open({ tasksDir: TASKS, workRoot: root }), root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("Environment.newWorkspace() caps bytes and files while one command writes", async () => {
  // The attack: one run_command wrote 1 GiB into the workspace; the cap was checked only after the
  // command ended.
  await withEnvironment(async (env) => {
    if (!env.sandbox.workspaceMount(1, 1)) {
      return console.warn("skipped: workspaces cannot be capped file systems here (not root)");
    }
    const task = env.task("py-median-even");
    const workspace = env.newWorkspace(task);
    await workspace.ready;
    try {
      const run = (script: string) =>
        env.sandbox.run({ argv: ["python3", "-c", script], cwd: workspace.dir, timeoutMs: 60_000 });
      const bytes = await run(`import os
written = 0
try:
    for i in range(16):
        with open(f'big{i}', 'wb') as f:
            for _ in range(64):
                f.write(b'x' * 1024 * 1024)
                written += 1024 * 1024
    print('wrote', written)
except OSError as e:
    print('refused', e.errno, written)`);
      assert.match(bytes.stdout, /^refused 28 /, bytes.stderr);
      const usage = await measureTree(workspace.dir);
      // The cap: the allowed growth and a test run's report folder (made beside the workspace, in
      // its file system), and a little more.
      assert.ok(
        usage.bytes < env.limits.maxGrowthBytes + REPORT_FOLDER_BYTES + 8 * 1024 ** 2,
        `${usage.bytes} bytes`,
      );
      const files = await run(`import os, glob
for f in glob.glob('big*'):
    os.remove(f)
os.mkdir('many')
n = 0
try:
    for n in range(200_000):
        open(f'many/{n}', 'w').close()
    print('made', n)
except OSError as e:
    print('refused', e.errno, n)`);
      assert.match(files.stdout, /^refused 28 /, files.stderr);
      assert.ok(
        Number(files.stdout.trim().split(" ")[2]) < 25_000 + REPORT_FOLDER_ENTRIES,
        files.stdout,
      );
    } finally {
      await workspace.remove();
    }
    assert.equal(existsSync(workspace.dir), false);
  });
});

Deno.test("Environment.grade() and run_tests make the report folder in the workspace's own file system, with no mount per run", async () => {
  // Each test run mounted a file system of its own for its report folder, and unmounted it: two
  // helper requests and a process each, per run, on every episode's path.
  await withEnvironment(async (env, root) => {
    if (!env.sandbox.workspaceMount(1, 1)) {
      return console.warn("skipped: workspaces cannot be capped file systems here (not root)");
    }
    const task = env.task("py-median-even");
    const mounted: string[] = [];
    const workspaceMount = env.sandbox.workspaceMount.bind(env.sandbox);
    env.sandbox.workspaceMount = (bytes, entries) => {
      const mount = workspaceMount(bytes, entries)!;
      return { ...mount, mount: (dir) => (mounted.push(dir), mount.mount(dir)) };
    };
    const grade = await env.grade(task, Deno.readTextFileSync(task.solutionPath!));
    assert.equal(grade.fail_to_pass.passed, grade.fail_to_pass.total, JSON.stringify(grade));
    assert.ok(grade.fail_to_pass.total > 0);
    assert.deepEqual(grade.run.problems, []);
    assert.equal(mounted.length, 1);
    assert.match(mounted[0], /\/grade-py-median-even-[0-9a-f]+$/);
    const workspace = env.newWorkspace(task);
    await workspace.ready;
    try {
      assert.equal(workspace.mountRoot, mounted[1]);
      const ctx = toolContext(task, { workspace, sandbox: env.sandbox });
      const output = okOutput(await call(runTestsTool, {}, ctx));
      assert.match(output, /^\d+ passed, \d+ failed/m);
      assert.equal(mounted.length, 2);
      assert.deepEqual([...Deno.readDirSync(workspace.mountRoot!)].map((e) => e.name), ["work"]);
    } finally {
      await workspace.remove();
    }
    assert.deepEqual(await mountsUnder(root), []);
  });
});

Deno.test("Workspace.keep() copies a capped workspace out of its file system", async () => {
  await withEnvironment(async (env, root) => {
    if (!env.sandbox.workspaceMount(1, 1)) {
      return console.warn("skipped: workspaces cannot be capped file systems here (not root)");
    }
    const workspace = env.newWorkspace(env.task("py-median-even"));
    await workspace.ready;
    Deno.writeTextFileSync(join(workspace.dir, "note.txt"), "kept");
    const kept = await workspace.keep();
    assert.equal(Deno.readTextFileSync(join(kept, "note.txt")), "kept");
    assert.deepEqual(await mountsUnder(root), []);
  });
});

Deno.test("Workspace.keep() copies a capped workspace to the keep root under its own name", async () => {
  // The workspace is the `work/` folder of its file system's mount point: kept, it is the
  // workspace's files under the mount point's name (`<task>-<id>`), never a folder named `work`.
  await withEnvironment(async (env, root) => {
    if (!env.sandbox.workspaceMount(1, 1)) {
      return console.warn("skipped: workspaces cannot be capped file systems here (not root)");
    }
    const keepRoot = join(root, "kept");
    Deno.mkdirSync(keepRoot);
    const keeping = await Environment.open({ tasksDir: TASKS, workRoot: root, keepRoot });
    const task = keeping.task("py-median-even");
    const workspace = keeping.newWorkspace(task);
    await workspace.ready;
    Deno.writeTextFileSync(join(workspace.dir, "note.txt"), "kept");
    const kept = await workspace.keep();
    assert.equal(kept, join(keepRoot, workspace.mountRoot!.split("/").pop()!));
    assert.match(kept, /\/py-median-even-[0-9a-f]+$/);
    const snapshot = keeping.snapshot(task);
    const top = [...snapshot.files.map((f) => f.path), ...snapshot.dirs]
      .filter((p) => !p.includes("/"));
    assert.deepEqual(
      [...Deno.readDirSync(kept)].map((e) => e.name).sort(),
      [...top, "note.txt"].sort(),
    );
    assert.deepEqual(await mountsUnder(root), []);
  });
});

Deno.test("claimRoot() release detaches capped workspaces left in the folder", async () => {
  const parent = realpathSync(await Deno.makeTempDir({ prefix: "patchgym-claim-" }));
  try {
    const owned = claimRoot(parent);
    const env = await Environment.open({ tasksDir: TASKS, workRoot: owned.dir });
    if (!env.sandbox.workspaceMount(1, 1)) {
      owned.release();
      return console.warn("skipped: workspaces cannot be capped file systems here (not root)");
    }
    const workspace = env.newWorkspace(env.task("py-median-even"));
    await workspace.ready;
    assert.equal((await mountsUnder(owned.dir)).length, 1);
    owned.release();
    assert.deepEqual(await mountsUnder(parent), []);
    assert.equal(existsSync(owned.dir), false);
  } finally {
    await Deno.remove(parent, { recursive: true });
  }
});

Deno.test("defaultWorkRoot() is /tmp/patchgym for root and a folder of its own for any other user", () => {
  // Another user's /tmp/patchgym (often root's, from an earlier run) is one this user may not write
  // or may not trust: each user gets a root of its own by default.
  assert.equal(SHARED_WORK_ROOT, "/tmp/patchgym");
  assert.equal(defaultWorkRoot(0), "/tmp/patchgym");
  assert.equal(defaultWorkRoot(1000), "/tmp/patchgym-1000");
  assert.equal(defaultWorkRoot(65534), "/tmp/patchgym-65534");
  // Who it is cannot be told: the shared root, which claimRoot checks as for anyone.
  assert.equal(defaultWorkRoot(null), "/tmp/patchgym");
  // This process's own, however it learns who it is (`--allow-sys=uid`, or `id -u`).
  const uid = ownId("u");
  assert.equal(defaultWorkRoot(), uid === 0 ? "/tmp/patchgym" : `/tmp/patchgym-${uid}`);
});
