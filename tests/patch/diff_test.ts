import assert from "node:assert/strict";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { diffTree } from "../../src/patch/diff.ts";
import { readTree } from "../../src/workspace/tree.ts";
import { snapshotDir } from "../../src/workspace/snapshot.ts";
import { writeFiles } from "../_fixtures.ts";

const encoder = new TextEncoder();

/** Snapshot `files` in a temp folder, then let `fn` edit the tree and diff it. */
async function withTree(
  files: Record<string, string | Uint8Array>,
  fn: (dir: string, diff: () => ReturnType<typeof diffTree>) => Promise<void> | void,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-diff-" });
  try {
    writeFiles(dir, files);
    const original = snapshotDir(dir);
    await fn(dir, () => diffTree(original, dir));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("diffTree() is empty for an unchanged tree", async () => {
  await withTree({ "a.py": "x = 1\n", "b/c.txt": "c\n" }, async (_dir, diff) => {
    assert.deepEqual(await diff(), {
      patch: "",
      created: [],
      modified: [],
      deleted: [],
      binary: [],
    });
  });
});

Deno.test("diffTree() lists a modified file with a git-style hunk", async () => {
  await withTree({ "src/app.py": "a\nb\nc\n" }, async (dir, diff) => {
    writeFileSync(join(dir, "src/app.py"), "a\nB\nc\n");
    const result = await diff();
    assert.deepEqual(result.modified, ["src/app.py"]);
    assert.equal(
      result.patch,
      [
        "diff --git a/src/app.py b/src/app.py",
        "--- a/src/app.py",
        "+++ b/src/app.py",
        "@@ -1,3 +1,3 @@",
        " a",
        "-b",
        "+B",
        " c",
        "",
      ].join("\n"),
    );
  });
});

Deno.test("diffTree() uses @@ -0,0 +1,N @@ for a created file", async () => {
  await withTree({ "a.txt": "a\n" }, async (dir, diff) => {
    writeFiles(dir, { "pkg/new.py": "one\ntwo\nthree\n" });
    const result = await diff();
    assert.deepEqual(result.created, ["pkg/new.py"]);
    assert.equal(
      result.patch,
      [
        "diff --git a/pkg/new.py b/pkg/new.py",
        "new file mode 100644",
        "--- /dev/null",
        "+++ b/pkg/new.py",
        "@@ -0,0 +1,3 @@",
        "+one",
        "+two",
        "+three",
        "",
      ].join("\n"),
    );
  });
});

Deno.test("diffTree() uses @@ -1,N +0,0 @@ for a deleted file", async () => {
  await withTree({ "old.py": "x\ny\n", "keep.py": "k\n" }, async (dir, diff) => {
    rmSync(join(dir, "old.py"));
    const result = await diff();
    assert.deepEqual(result.deleted, ["old.py"]);
    assert.equal(
      result.patch,
      [
        "diff --git a/old.py b/old.py",
        "deleted file mode 100644",
        "--- a/old.py",
        "+++ /dev/null",
        "@@ -1,2 +0,0 @@",
        "-x",
        "-y",
        "",
      ].join("\n"),
    );
  });
});

Deno.test("diffTree() lists a created empty file with a header and no hunk", async () => {
  await withTree({ "a.txt": "a\n" }, async (dir, diff) => {
    writeFileSync(join(dir, "pkg.txt"), "");
    const result = await diff();
    assert.deepEqual(result.created, ["pkg.txt"]);
    assert.equal(result.patch, "diff --git a/pkg.txt b/pkg.txt\nnew file mode 100644\n");
  });
});

Deno.test("diffTree() lists a deleted empty file", async () => {
  await withTree({ "__init__.py": "", "a.py": "" }, async (dir, diff) => {
    rmSync(join(dir, "__init__.py"));
    const result = await diff();
    assert.deepEqual(result.deleted, ["__init__.py"]);
    assert.equal(
      result.patch,
      "diff --git a/__init__.py b/__init__.py\ndeleted file mode 100644\n",
    );
  });
});

Deno.test("diffTree() marks a missing final newline", async () => {
  await withTree({ "a.txt": "x\ny" }, async (dir, diff) => {
    writeFileSync(join(dir, "a.txt"), "x\nz");
    const patch = (await diff()).patch;
    assert.match(patch, /^-y\n\\ No newline at end of file\n\+z\n\\ No newline at end of file\n$/m);
    assert.equal(patch.split("\\ No newline at end of file").length - 1, 2);
  });
});

Deno.test("diffTree() marks a final newline added to a file", async () => {
  await withTree({ "a.txt": "x" }, async (dir, diff) => {
    writeFileSync(join(dir, "a.txt"), "x\n");
    assert.ok(
      (await diff()).patch.endsWith("@@ -1,1 +1,1 @@\n-x\n\\ No newline at end of file\n+x\n"),
    );
  });
});

Deno.test("diffTree() names binary files instead of inlining them", async () => {
  await withTree(
    { "img.png": new Uint8Array([0x89, 0x50, 0, 1]), "gone.bin": "\0" },
    async (dir, diff) => {
      writeFileSync(join(dir, "img.png"), new Uint8Array([0x89, 0x50, 0, 2]));
      writeFileSync(join(dir, "new.bin"), new Uint8Array([0xff, 0xfe, 0xfd]));
      rmSync(join(dir, "gone.bin"));
      const result = await diff();
      assert.deepEqual(result.binary, ["gone.bin", "img.png", "new.bin"]);
      assert.deepEqual(result.modified, ["img.png"]);
      assert.deepEqual(result.created, ["new.bin"]);
      assert.deepEqual(result.deleted, ["gone.bin"]);
      assert.equal(
        result.patch,
        [
          "diff --git a/gone.bin b/gone.bin",
          "deleted file mode 100644",
          "Binary files a/gone.bin and /dev/null differ",
          "diff --git a/img.png b/img.png",
          "Binary files a/img.png and b/img.png differ",
          "diff --git a/new.bin b/new.bin",
          "new file mode 100644",
          "Binary files /dev/null and b/new.bin differ",
          "",
        ].join("\n"),
      );
    },
  );
});

Deno.test("diffTree() orders files by path whatever order they changed in", async () => {
  await withTree({ "b.txt": "b\n", "a/z.txt": "z\n", "c.txt": "c\n" }, async (dir, diff) => {
    writeFileSync(join(dir, "c.txt"), "C\n");
    writeFiles(dir, { "0-new.txt": "n\n", "a/y.txt": "y\n" });
    rmSync(join(dir, "b.txt"));
    writeFileSync(join(dir, "a/z.txt"), "Z\n");
    const first = await diff();
    const headers = [...first.patch.matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1]);
    assert.deepEqual(headers, ["0-new.txt", "a/y.txt", "a/z.txt", "b.txt", "c.txt"]);
    assert.deepEqual(first.created, ["0-new.txt", "a/y.txt"]);
    assert.deepEqual(first.modified, ["a/z.txt", "c.txt"]);
    assert.deepEqual(first.deleted, ["b.txt"]);
    assert.deepEqual(await diff(), first);
  });
});

Deno.test("diffTree() ignores noise folders, bytecode and symlinks", async () => {
  await withTree({ "a.py": "x\n" }, async (dir, diff) => {
    writeFiles(dir, {
      "__pycache__/a.cpython-311.pyc": "\0",
      "b.pyc": "\0",
      ".git/HEAD": "ref\n",
      "node_modules/m/index.js": "",
      ".pytest_cache/README.md": "",
    });
    mkdirSync(join(dir, "empty-dir"));
    symlinkSync("a.py", join(dir, "link.py"));
    assert.equal((await diff()).patch, "");
  });
});

Deno.test("diffTree() splits distant edits into separate hunks with context", async () => {
  const lines = Array.from({ length: 20 }, (_, i) => `line${i + 1}`);
  await withTree({ "f.txt": lines.join("\n") + "\n" }, async (dir, diff) => {
    const edited = [...lines];
    edited[1] = "LINE2";
    edited[17] = "LINE18";
    writeFileSync(join(dir, "f.txt"), edited.join("\n") + "\n");
    const hunks = (await diff()).patch.match(/^@@ .* @@$/gm);
    assert.deepEqual(hunks, ["@@ -1,5 +1,5 @@", "@@ -15,6 +15,6 @@"]);
  });
});

Deno.test("diffTree() patch applies to the original with git apply", {
  ignore: !hasGit(),
}, async () => {
  await withTree({
    "a.py": "def f():\n    return 1\n",
    "old.txt": "bye\n",
    "tail.txt": "no newline",
    "empty.txt": "",
  }, async (dir, diff) => {
    const before = snapshotDir(dir);
    writeFileSync(join(dir, "a.py"), "def f():\n    return 2\n");
    rmSync(join(dir, "old.txt"));
    rmSync(join(dir, "empty.txt"));
    writeFileSync(join(dir, "tail.txt"), "no newline\nnow two lines");
    writeFiles(dir, { "pkg/new.py": "n = 1\n", "pkg/__init__.py": "" });
    const { patch } = await diff();
    const target = join(dir, "..", `${dir.split("/").pop()}-apply`);
    mkdirSync(target);
    try {
      for (const file of before.files) writeFiles(target, { [file.path]: file.content });
      const git = new Deno.Command("git", {
        args: ["apply", "-"],
        cwd: target,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = git.stdin.getWriter();
      await writer.write(encoder.encode(patch));
      await writer.close();
      const { success, stderr } = await git.output();
      assert.ok(success, new TextDecoder().decode(stderr));
      assert.deepEqual(readTree(target), readTree(dir));
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });
});

function hasGit(): boolean {
  try {
    return new Deno.Command("git", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

// Issue 10: a 60 MB file was read whole, diffed and shipped back in the reply.
Deno.test("diffTree() over maxBytes gives no patch and names the biggest changed files", async () => {
  const dir = await Deno.makeTempDir({ prefix: "patchgym-diff-" });
  try {
    writeFiles(dir, { "a.txt": "a\n", "b.txt": "b\n" });
    const original = snapshotDir(dir);
    writeFileSync(join(dir, "big.bin"), new Uint8Array(5000));
    writeFileSync(join(dir, "a.txt"), "changed\n");
    const result = await diffTree(original, dir, { maxBytes: 1000 });
    assert.deepEqual(result, {
      patch: "",
      created: [],
      modified: [],
      deleted: [],
      binary: [],
      tooLarge: {
        bytes: 5010,
        limit: 1000,
        largest: [{ path: "big.bin", bytes: 5000 }, { path: "a.txt", bytes: 10 }],
      },
    });
    // Same-size edits count once read: under the cap the diff is built as usual.
    Deno.removeSync(join(dir, "big.bin"));
    writeFileSync(join(dir, "b.txt"), "B\n");
    const small = await diffTree(original, dir, { maxBytes: 1000 });
    assert.equal(small.tooLarge, undefined);
    assert.deepEqual(small.modified, ["a.txt", "b.txt"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// A full rewrite of a big file made the line diff take minutes (Myers' cost grows with edits).
Deno.test("diffTree() shows a file rewritten past the edit bound as removed and added whole", async () => {
  const before = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join("\n") + "\n";
  const after = Array.from({ length: 3000 }, (_, i) => `other ${i}`).join("\n");
  await withTree({ "f.txt": before }, async (dir, diff) => {
    writeFileSync(join(dir, "f.txt"), after);
    const result = await diff();
    const lines = result.patch.split("\n");
    assert.deepEqual(lines.slice(0, 4), [
      "diff --git a/f.txt b/f.txt",
      "--- a/f.txt",
      "+++ b/f.txt",
      "@@ -1,3000 +1,3000 @@",
    ]);
    assert.equal(lines.filter((l) => l.startsWith("-line ")).length, 3000);
    assert.equal(lines.filter((l) => l.startsWith("+other ")).length, 3000);
    assert.equal(lines[lines.length - 2], "\\ No newline at end of file");
  });
});
