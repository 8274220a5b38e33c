import assert from "node:assert/strict";
import { chmodSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { isNoiseFile, snapshotDir, writeSnapshot } from "../../src/workspace/snapshot.ts";
import { withTempDir, writeFiles } from "../_fixtures.ts";

const decoder = new TextDecoder();

Deno.test("snapshotDir() reads files and folders sorted, parents before children", async () => {
  await withTempDir((dir) => {
    writeFiles(dir, {
      "b.txt": "b",
      "a/z.py": "z",
      "a/b/c.py": "c",
      "A.md": "upper",
    });
    mkdirSync(join(dir, "empty"));
    const snapshot = snapshotDir(dir);
    assert.deepEqual(snapshot.dirs, ["a", "a/b", "empty"]);
    assert.deepEqual(snapshot.files.map((f) => f.path), ["A.md", "a/b/c.py", "a/z.py", "b.txt"]);
    assert.equal(decoder.decode(snapshot.byPath.get("a/b/c.py")!.content), "c");
    assert.equal(snapshot.byPath.size, 4);
  });
});

Deno.test("snapshotDir() skips noise folders and bytecode files", async () => {
  await withTempDir((dir) => {
    writeFiles(dir, {
      "src/app.py": "x",
      "src/__pycache__/app.cpython-311.pyc": "\0",
      "src/stale.pyc": "\0",
      ".git/HEAD": "ref",
      "node_modules/x/index.js": "",
      ".pytest_cache/v/cache": "",
      ".venv/bin/python": "",
    });
    const snapshot = snapshotDir(dir);
    assert.deepEqual(snapshot.dirs, ["src"]);
    assert.deepEqual(snapshot.files.map((f) => f.path), ["src/app.py"]);
  });
});

Deno.test("snapshotDir() keeps permission bits", async () => {
  await withTempDir((dir) => {
    writeFiles(dir, { "run.sh": "#!/bin/sh\n", "data.txt": "" });
    chmodSync(join(dir, "run.sh"), 0o755);
    chmodSync(join(dir, "data.txt"), 0o644);
    const snapshot = snapshotDir(dir);
    assert.equal(snapshot.byPath.get("run.sh")!.mode, 0o755);
    assert.equal(snapshot.byPath.get("data.txt")!.mode, 0o644);
  });
});

Deno.test("snapshotDir() refuses a symlink in a task repository", async () => {
  await withTempDir((dir) => {
    writeFiles(dir, { "a.txt": "" });
    symlinkSync("a.txt", join(dir, "link"));
    assert.throws(
      () => snapshotDir(dir),
      /Cannot snapshot ".*link": only regular files and folders/,
    );
  });
});

Deno.test("writeSnapshot() recreates the tree byte for byte", async () => {
  await withTempDir((dir) => {
    const source = join(dir, "source");
    const copy = join(dir, "copy");
    writeFiles(source, {
      "a/b/c.py": "print('hi')\n",
      "bin.dat": new Uint8Array([0, 1, 2, 255]),
      "run.sh": "#!/bin/sh\n",
    });
    chmodSync(join(source, "run.sh"), 0o755);
    mkdirSync(join(source, "empty"));
    mkdirSync(copy);
    writeSnapshot(snapshotDir(source), copy);
    assert.deepEqual(snapshotDir(copy), snapshotDir(source));
  });
});

Deno.test("isNoiseFile() matches Python bytecode only", () => {
  assert.equal(isNoiseFile("x.pyc"), true);
  assert.equal(isNoiseFile("x.pyo"), true);
  assert.equal(isNoiseFile("x.py"), false);
  assert.equal(isNoiseFile("pyc"), false);
});
