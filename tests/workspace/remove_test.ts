import assert from "node:assert/strict";
import { join } from "node:path";
import { removeTree, removeTreeSync } from "../../src/workspace/remove.ts";

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
