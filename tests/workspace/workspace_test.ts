import assert from "node:assert/strict";
import { diffTree } from "../../src/patch/diff.ts";
import { existsSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { snapshotDir } from "../../src/workspace/snapshot.ts";
import { createWorkspace, startWorkspace } from "../../src/workspace/workspace.ts";
import { withTempDir, writeFiles } from "../_fixtures.ts";

/** A source repository and an (empty) workspace root under `dir`. */
function setUp(dir: string, files: Record<string, string | Uint8Array>) {
  const source = join(dir, "source");
  const root = join(dir, "workspaces");
  writeFiles(source, files);
  Deno.mkdirSync(root);
  return { source, root };
}

Deno.test("createWorkspace() makes a fresh copy equal to the source", async () => {
  await withTempDir(async (dir) => {
    const { source, root } = setUp(dir, {
      "pkg/__init__.py": "",
      "pkg/mod.py": "def f():\n    return 1\n",
      "tests/test_mod.py": "import pkg\n",
      "data.bin": new Uint8Array([0, 159, 146, 150]),
    });
    const snapshot = snapshotDir(source);
    const workspace = createWorkspace(snapshot, { root, prefix: "my-task" });
    try {
      assert.equal(workspace.dir, realpathSync(workspace.dir));
      assert.equal(realpathSync(dirname(workspace.dir)), realpathSync(root));
      assert.match(workspace.dir.split("/").pop()!, /^my-task-/);
      assert.deepEqual(snapshotDir(workspace.dir), snapshot);
      assert.equal(workspace.original, snapshot);
      assert.deepEqual((await diffTree(workspace.original, workspace.dir)).patch, "");
    } finally {
      await workspace.remove();
    }
  });
});

Deno.test("createWorkspace() gives independent workspaces from one snapshot", async () => {
  await withTempDir(async (dir) => {
    const { source, root } = setUp(dir, { "a.txt": "original\n" });
    const snapshot = snapshotDir(source);
    const first = createWorkspace(snapshot, { root });
    const second = createWorkspace(snapshot, { root });
    try {
      assert.notEqual(first.dir, second.dir);
      writeFileSync(join(first.dir, "a.txt"), "changed\n");
      writeFileSync(join(first.dir, "new.txt"), "new\n");
      assert.equal(readFileSync(join(second.dir, "a.txt"), "utf8"), "original\n");
      assert.equal(existsSync(join(second.dir, "new.txt")), false);
      assert.equal(readFileSync(join(source, "a.txt"), "utf8"), "original\n");
      assert.deepEqual((await diffTree(first.original, first.dir)).modified, ["a.txt"]);
      assert.deepEqual((await diffTree(first.original, first.dir)).created, ["new.txt"]);
      assert.equal((await diffTree(second.original, second.dir)).patch, "");
    } finally {
      await first.remove();
      await second.remove();
    }
  });
});

Deno.test("Workspace.remove() deletes the folder and is safe to call twice", async () => {
  await withTempDir(async (dir) => {
    const { source, root } = setUp(dir, { "a/b.txt": "x" });
    const workspace = createWorkspace(snapshotDir(source), { root });
    await workspace.remove();
    assert.equal(existsSync(workspace.dir), false);
    await workspace.remove();
    assert.equal(existsSync(workspace.dir), false);
  });
});

Deno.test("Workspace.remove() runs its cleanups first, and one given later at once", async () => {
  await withTempDir(async (dir) => {
    const { source, root } = setUp(dir, { "a.txt": "a" });
    const ws = createWorkspace(snapshotDir(source), { root });
    const seen: string[] = [];
    ws.onRemove(() => {
      seen.push(`cleanup, folder there: ${existsSync(ws.dir)}`);
      return Promise.resolve();
    });
    await ws.remove();
    assert.deepEqual(seen, ["cleanup, folder there: true"]);
    ws.onRemove(() => {
      seen.push("late cleanup");
      return Promise.resolve();
    });
    assert.deepEqual(seen, ["cleanup, folder there: true", "late cleanup"]);
  });
});

Deno.test("createWorkspace() leaves noise folders out of the copy", async () => {
  await withTempDir(async (dir) => {
    const { source, root } = setUp(dir, {
      "src/app.py": "x = 1\n",
      "src/__pycache__/app.cpython-311.pyc": "\0\0",
      ".git/config": "[core]\n",
      "node_modules/left-pad/index.js": "",
    });
    const workspace = createWorkspace(snapshotDir(source), { root });
    try {
      assert.equal(existsSync(join(workspace.dir, "src/app.py")), true);
      assert.equal(existsSync(join(workspace.dir, "src/__pycache__")), false);
      assert.equal(existsSync(join(workspace.dir, ".git")), false);
      assert.equal(existsSync(join(workspace.dir, "node_modules")), false);
    } finally {
      await workspace.remove();
    }
  });
});

Deno.test("Workspace.resolve() guards paths against the workspace's real folder", async () => {
  await withTempDir(async (dir) => {
    const { source, root } = setUp(dir, { "a.txt": "x" });
    // The workspace root is reached through a symlink; resolve() must still work.
    const linkedRoot = join(dir, "linked");
    symlinkSync(root, linkedRoot);
    const workspace = createWorkspace(snapshotDir(source), { root: linkedRoot });
    try {
      const ok = workspace.resolve("a.txt");
      assert.ok(ok.ok);
      assert.equal(ok.abs, join(workspace.dir, "a.txt"));
      const escape = workspace.resolve("../other");
      assert.equal(escape.ok, false);
      symlinkSync(source, join(workspace.dir, "src-link"));
      const viaLink = workspace.resolve("src-link/a.txt");
      assert.equal(viaLink.ok ? "ok" : viaLink.code, "path_outside_workspace");
    } finally {
      await workspace.remove();
    }
  });
});

Deno.test("createWorkspace() removes a half-written workspace when the copy fails", async () => {
  await withTempDir((dir) => {
    const { source, root } = setUp(dir, { "a.txt": "x" });
    const snapshot = snapshotDir(source);
    // A file listed under a folder the snapshot never creates makes writeSnapshot fail.
    snapshot.files.push({ path: "missing/b.txt", content: new Uint8Array(), mode: 0o644 });
    assert.throws(() => createWorkspace(snapshot, { root }), Deno.errors.NotFound);
    assert.deepEqual([...Deno.readDirSync(root)], []);
  });
});

Deno.test("startWorkspace() writes the same copy in the background, ready when settled", async () => {
  await withTempDir(async (dir) => {
    const files = { "pkg/a.py": "a = 1\n", "pkg/sub/b.py": "b = 2\n", "run.sh": "echo\n" };
    const { source, root } = setUp(dir, files);
    const snapshot = snapshotDir(source);
    const workspace = startWorkspace(snapshot, { root, prefix: "bg" });
    await workspace.ready;
    for (const [path, content] of Object.entries(files)) {
      assert.equal(readFileSync(join(workspace.dir, path), "utf8"), content);
    }
    assert.equal((await diffTree(workspace.original, workspace.dir)).patch, "");
    await workspace.remove();
    assert.equal(existsSync(workspace.dir), false);
  });
});

Deno.test("startWorkspace() removed before it is ready leaves nothing behind", async () => {
  await withTempDir(async (dir) => {
    const files = Object.fromEntries(
      Array.from({ length: 100 }, (_, i) => [`f${i}.txt`, `${i}\n`]),
    );
    const { source, root } = setUp(dir, files);
    const workspace = startWorkspace(snapshotDir(source), { root });
    await workspace.remove();
    assert.deepEqual([...Deno.readDirSync(root)], []);
  });
});

Deno.test("Workspace.keep() moves the folder to the keep root, or leaves it where it is", async () => {
  await withTempDir(async (dir) => {
    const { source, root } = setUp(dir, { "a.txt": "x" });
    const keepRoot = join(dir, "kept");
    Deno.mkdirSync(keepRoot);
    const snapshot = snapshotDir(source);
    const moved = createWorkspace(snapshot, { root, keepRoot });
    const kept = await moved.keep();
    assert.equal(kept, join(keepRoot, moved.dir.split("/").pop()!));
    assert.equal(readFileSync(join(kept, "a.txt"), "utf8"), "x");
    assert.equal(existsSync(moved.dir), false);
    const stays = createWorkspace(snapshot, { root });
    assert.equal(await stays.keep(), stays.dir);
    assert.equal(existsSync(stays.dir), true);
  });
});

Deno.test("Workspace.keep() clears setuid, setgid and sticky bits and never follows a symlink", async () => {
  // The attack: a jailed program left a setuid executable that --keep-workspaces carried into the
  // shared work root, where any local user could run it.
  await withTempDir(async (dir) => {
    const src = join(dir, "src");
    writeFiles(src, { "a.py": "x = 1\n" });
    const keepRoot = join(dir, "kept");
    Deno.mkdirSync(keepRoot);
    const outside = join(dir, "outside");
    writeFileSync(outside, "");
    Deno.chmodSync(outside, 0o4755);
    const ws = createWorkspace(snapshotDir(src), { root: dir, keepRoot });
    writeFileSync(join(ws.dir, "tool"), "#!/bin/sh\n");
    Deno.chmodSync(join(ws.dir, "tool"), 0o6755);
    Deno.mkdirSync(join(ws.dir, "shared"));
    Deno.chmodSync(join(ws.dir, "shared"), 0o3777);
    symlinkSync(outside, join(ws.dir, "link"));
    const kept = await ws.keep();
    assert.equal(Deno.statSync(join(kept, "tool")).mode! & 0o7777, 0o755);
    assert.equal(Deno.statSync(join(kept, "shared")).mode! & 0o7777, 0o777);
    // What a link leads to outside is not the workspace's to change.
    assert.equal(Deno.statSync(outside).mode! & 0o7777, 0o4755);
  });
});
