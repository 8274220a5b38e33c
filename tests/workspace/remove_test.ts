import assert from "node:assert/strict";
import { join } from "node:path";
import { removeFlatSync, removeTree, removeTreeSync } from "../../src/workspace/remove.ts";

/** Makes `dir/a/a/...` `depth` folders deep (by changing folder: the path outgrows PATH_MAX). */
function deepTree(dir: string, depth: number): void {
  const out = new Deno.Command("python3", {
    args: [
      "-c",
      `import os, sys
os.chdir(sys.argv[1])
for i in range(int(sys.argv[2])):
    os.mkdir('a')
    os.chdir('a')
open('leaf', 'w').close()
os.symlink('/', 'root')`,
      dir,
      String(depth),
    ],
  }).outputSync();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

Deno.test("removeTree() removes a tree nested far deeper than PATH_MAX without following links", async () => {
  // Guards the bug where Deno.remove({ recursive: true }) of a 20,000-deep tree the agent's code
  // made overflowed its thread's stack and aborted the whole process.
  const base = await Deno.makeTempDir({ prefix: "patchgym-remove-" });
  try {
    for (const sync of [false, true]) {
      const dir = join(base, "tree");
      Deno.mkdirSync(dir);
      deepTree(dir, 20_000);
      Deno.writeTextFileSync(join(dir, "top.txt"), "x");
      if (sync) removeTreeSync(dir);
      else await removeTree(dir);
      assert.deepEqual([...Deno.readDirSync(base)], []);
    }
    // Missing: nothing to do.
    await removeTree(join(base, "missing"));
    removeTreeSync(join(base, "missing"));
    assert.ok(Deno.statSync("/usr/bin").isDirectory);
  } finally {
    await removeTree(base);
  }
});

Deno.test("removeTree() removes an empty folder, a file and a symlink, never what a link points to", async () => {
  const base = await Deno.makeTempDir({ prefix: "patchgym-remove-" });
  const outside = await Deno.makeTempDir({ prefix: "patchgym-remove-outside-" });
  try {
    Deno.writeTextFileSync(join(outside, "kept.txt"), "x");
    Deno.mkdirSync(join(base, "empty"));
    Deno.writeTextFileSync(join(base, "file.txt"), "x");
    Deno.symlinkSync(outside, join(base, "link"));
    // A folder that is not empty takes the walk after the one-call attempt.
    Deno.mkdirSync(join(base, "full/sub"), { recursive: true });
    Deno.writeTextFileSync(join(base, "full/sub/f.txt"), "x");
    for (const name of ["empty", "file.txt", "link", "full"]) await removeTree(join(base, name));
    assert.deepEqual([...Deno.readDirSync(base)], []);
    assert.equal(Deno.readTextFileSync(join(outside, "kept.txt")), "x");
  } finally {
    await removeTree(base);
    await removeTree(outside);
  }
});

Deno.test("removeFlatSync() removes a folder of a few files and links at once, and leaves any other for removeTree()", async () => {
  const base = await Deno.makeTempDir({ prefix: "patchgym-remove-flat-" });
  try {
    const outside = join(base, "outside.txt");
    Deno.writeTextFileSync(outside, "kept");
    const make = (name: string, files: number) => {
      const dir = join(base, name);
      Deno.mkdirSync(dir);
      for (let i = 0; i < files; i++) Deno.writeTextFileSync(join(dir, `f${i}`), "x");
      return dir;
    };
    // Files and a link (removed, never followed): gone in one go.
    const flat = make("flat", 3);
    Deno.symlinkSync(outside, join(flat, "link"));
    Deno.symlinkSync(base, join(flat, "folder-link"));
    assert.equal(removeFlatSync(flat, 8), true);
    assert.throws(() => Deno.lstatSync(flat), Deno.errors.NotFound);
    assert.equal(Deno.readTextFileSync(outside), "kept");
    // Missing: nothing to do.
    assert.equal(removeFlatSync(flat, 8), true);
    // More entries than asked, or a folder inside: left whole, for removeTree().
    for (const [dir, most] of [[make("many", 9), 8], [make("nested", 1), 8]] as const) {
      if (dir.endsWith("nested")) Deno.mkdirSync(join(dir, "sub"));
      const before = [...Deno.readDirSync(dir)].length;
      assert.equal(removeFlatSync(dir, most), false);
      assert.equal([...Deno.readDirSync(dir)].length, before);
      await removeTree(dir);
      assert.throws(() => Deno.lstatSync(dir), Deno.errors.NotFound);
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
