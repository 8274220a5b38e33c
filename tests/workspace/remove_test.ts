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

Deno.test("removeFlatSync() removes a folder of a few small files and links at once, never following one", async () => {
  const base = await Deno.makeTempDir({ prefix: "patchgym-remove-flat-" });
  try {
    const outside = join(base, "outside.txt");
    Deno.writeTextFileSync(outside, "kept");
    const flat = join(base, "flat");
    Deno.mkdirSync(flat);
    for (let i = 0; i < 5; i++) Deno.writeTextFileSync(join(flat, `f${i}`), "x");
    Deno.symlinkSync(outside, join(flat, "link"));
    Deno.symlinkSync(base, join(flat, "folder-link"));
    mkfifo(join(flat, "fifo"));
    // Exactly as many entries as it takes.
    assert.equal(removeFlatSync(flat, 8), true);
    assert.throws(() => Deno.lstatSync(flat), Deno.errors.NotFound);
    assert.equal(Deno.readTextFileSync(outside), "kept");
    // Missing: nothing to do.
    assert.equal(removeFlatSync(flat, 8), true);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("removeFlatSync() leaves to removeTree() what it cannot remove at once, untouched", async () => {
  const base = await Deno.makeTempDir({ prefix: "patchgym-remove-flat-" });
  try {
    const target = join(base, "target");
    Deno.mkdirSync(target);
    Deno.writeTextFileSync(join(target, "kept.txt"), "kept");
    const cases: [string, (dir: string) => void][] = [
      [
        "one entry too many",
        (dir) => ["f7", "f8"].forEach((f) => Deno.writeTextFileSync(join(dir, f), "x")),
      ],
      ["a folder inside", (dir) => Deno.mkdirSync(join(dir, "sub"))],
      [
        "files of more than a mebibyte in all",
        (dir) =>
          ["big1", "big2"].forEach((f) =>
            Deno.writeFileSync(join(dir, f), new Uint8Array(2 ** 19))
          ),
      ],
      ["a name that is not UTF-8", (dir) => nonUtf8File(dir)],
    ];
    for (const [what, add] of cases) {
      const dir = join(base, "case");
      Deno.mkdirSync(dir);
      for (let i = 0; i < 7; i++) Deno.writeTextFileSync(join(dir, `f${i}`), "x");
      add(dir);
      const before = [...Deno.readDirSync(dir)].length;
      assert.equal(removeFlatSync(dir, 8), false, what);
      assert.equal([...Deno.readDirSync(dir)].length, before, what);
      await removeTree(dir);
      assert.throws(() => Deno.lstatSync(dir), Deno.errors.NotFound, what);
    }
    // A link in the folder's place is not followed: what it leads to is kept.
    const link = join(base, "link");
    Deno.symlinkSync(target, link);
    assert.equal(removeFlatSync(link, 8), false);
    assert.equal(Deno.readTextFileSync(join(target, "kept.txt")), "kept");
  } finally {
    await removeTree(base);
  }
});

/** A FIFO at `path`. */
function mkfifo(path: string): void {
  const out = new Deno.Command("mkfifo", { args: [path] }).outputSync();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}

/** A file in `dir` whose name is not UTF-8 (Deno lists it with U+FFFD). */
function nonUtf8File(dir: string): void {
  const out = new Deno.Command("python3", {
    args: [
      "-c",
      "import os, sys; os.close(os.open(os.path.join(os.fsencode(sys.argv[1]), b'\\xff'), os.O_CREAT | os.O_WRONLY))",
      dir,
    ],
  }).outputSync();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
}
