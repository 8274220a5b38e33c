import assert from "node:assert/strict";
import { diffTree } from "../../src/patch/diff.ts";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { applyPatchTool } from "../../src/tools/apply_patch.ts";
import type { ToolContext, ToolResult } from "../../src/tools/types.ts";
import { readTree } from "../../src/workspace/tree.ts";
import { writeSnapshot } from "../../src/workspace/snapshot.ts";
import { withContext, writeFiles } from "../_fixtures.ts";

function apply(ctx: ToolContext, patch: string): Promise<ToolResult> {
  return applyPatchTool.run({ patch }, ctx);
}

function read(ctx: ToolContext, path: string): string {
  return readFileSync(`${ctx.workspace.dir}/${path}`, "utf8");
}

function exists(ctx: ToolContext, path: string): boolean {
  return existsSync(`${ctx.workspace.dir}/${path}`);
}

function assertApplied(result: ToolResult, output: string): void {
  assert.deepEqual(result.ok ? result.output : result, output);
}

function assertFailed(result: ToolResult, code: string, message: RegExp): void {
  assert.equal(result.ok, false, result.ok ? result.output : "");
  if (result.ok) return;
  assert.equal(result.code, code, result.message);
  assert.match(result.message, message);
}

Deno.test("applyPatchTool.run() applies a plain unified diff without prefixes and with timestamps", async () => {
  await withContext({ "src/a.py": "def f():\n    return 1\n" }, async (ctx) => {
    const patch = [
      "--- src/a.py\t2024-01-01 10:00:00.000000000 +0000",
      "+++ src/a.py\t2024-01-01 10:05:00.000000000 +0000",
      "@@ -1,2 +1,2 @@",
      " def f():",
      "-    return 1",
      "+    return 2",
      "",
    ].join("\n");
    assertApplied(await apply(ctx, patch), "Applied patch: modified src/a.py");
    assert.equal(read(ctx, "src/a.py"), "def f():\n    return 2\n");
  });
});

Deno.test("applyPatchTool.run() applies a git-style diff to several files", async () => {
  await withContext({ "a.txt": "one\ntwo\nthree\n", "lib/b.txt": "x\ny\n" }, async (ctx) => {
    const patch = [
      "diff --git a/a.txt b/a.txt",
      "index 1111111..2222222 100644",
      "--- a/a.txt",
      "+++ b/a.txt",
      "@@ -1,3 +1,3 @@",
      " one",
      "-two",
      "+TWO",
      " three",
      "diff --git a/lib/b.txt b/lib/b.txt",
      "index 3333333..4444444 100644",
      "--- a/lib/b.txt",
      "+++ b/lib/b.txt",
      "@@ -2 +2,2 @@",
      " y",
      "+z",
      "",
    ].join("\n");
    assertApplied(await apply(ctx, patch), "Applied patch: modified a.txt, modified lib/b.txt");
    assert.equal(read(ctx, "a.txt"), "one\nTWO\nthree\n");
    assert.equal(read(ctx, "lib/b.txt"), "x\ny\nz\n");
  });
});

Deno.test("applyPatchTool.run() creates, deletes and renames files from git headers", async () => {
  const files = { "old.txt": "bye\n", "keep.py": "a = 1\nb = 2\n", "move.py": "m = 1\n" };
  await withContext(files, async (ctx) => {
    const patch = [
      "diff --git a/pkg/new.py b/pkg/new.py",
      "new file mode 100755",
      "--- /dev/null",
      "+++ b/pkg/new.py",
      "@@ -0,0 +1,2 @@",
      "+#!/usr/bin/env python3",
      "+print('hi')",
      "diff --git a/old.txt b/old.txt",
      "deleted file mode 100644",
      "--- a/old.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-bye",
      "diff --git a/move.py b/moved/move.py",
      "similarity index 100%",
      "rename from move.py",
      "rename to moved/move.py",
      "diff --git a/keep.py b/kept.py",
      "similarity index 60%",
      "rename from keep.py",
      "rename to kept.py",
      "--- a/keep.py",
      "+++ b/kept.py",
      "@@ -1,2 +1,2 @@",
      " a = 1",
      "-b = 2",
      "+b = 3",
      "",
    ].join("\n");
    assertApplied(
      await apply(ctx, patch),
      "Applied patch: created pkg/new.py, deleted old.txt, renamed move.py to moved/move.py, renamed keep.py to kept.py",
    );
    assert.equal(read(ctx, "pkg/new.py"), "#!/usr/bin/env python3\nprint('hi')\n");
    assert.equal(statSync(`${ctx.workspace.dir}/pkg/new.py`).mode & 0o777, 0o755);
    assert.equal(exists(ctx, "old.txt"), false);
    assert.equal(exists(ctx, "move.py"), false);
    assert.equal(read(ctx, "moved/move.py"), "m = 1\n");
    assert.equal(exists(ctx, "keep.py"), false);
    assert.equal(read(ctx, "kept.py"), "a = 1\nb = 3\n");
  });
});

Deno.test("applyPatchTool.run() creates a file shown by diff -N as a diff from an empty file", async () => {
  await withContext({ "pkg/a.py": "a = 1\n" }, async (ctx) => {
    const patch =
      "diff -ruN a/pkg/b.py b/pkg/b.py\n--- a/pkg/b.py\n+++ b/pkg/b.py\n@@ -0,0 +1,2 @@\n+b = 2\n+c = 3\n";
    assertApplied(await apply(ctx, patch), "Applied patch: created pkg/b.py");
    assert.equal(read(ctx, "pkg/b.py"), "b = 2\nc = 3\n");
  });
});

Deno.test("applyPatchTool.run() adds and removes a missing final newline", async () => {
  await withContext({ "add.txt": "a\nb", "drop.txt": "a\nb\n" }, async (ctx) => {
    const patch = [
      "--- a/add.txt",
      "+++ b/add.txt",
      "@@ -1,2 +1,2 @@",
      " a",
      "-b",
      "\\ No newline at end of file",
      "+b",
      "--- a/drop.txt",
      "+++ b/drop.txt",
      "@@ -1,2 +1,2 @@",
      " a",
      "-b",
      "+c",
      "\\ No newline at end of file",
      "",
    ].join("\n");
    assertApplied(await apply(ctx, patch), "Applied patch: modified add.txt, modified drop.txt");
    assert.equal(read(ctx, "add.txt"), "a\nb\n");
    assert.equal(read(ctx, "drop.txt"), "a\nc");
  });
});

Deno.test("applyPatchTool.run() keeps CRLF line endings", async () => {
  await withContext({ "win.txt": "one\r\ntwo\r\nthree\r\n" }, async (ctx) => {
    // A model writes LF lines; the file stays CRLF.
    const patch = "--- a/win.txt\n+++ b/win.txt\n@@ -1,3 +1,4 @@\n one\n-two\n+2\n+2.5\n three\n";
    assertApplied(await apply(ctx, patch), "Applied patch: modified win.txt");
    assert.equal(read(ctx, "win.txt"), "one\r\n2\r\n2.5\r\nthree\r\n");
  });
});

Deno.test("applyPatchTool.run() applies the Codex envelope: add, update, delete and move", async () => {
  const files = {
    "src/app.py":
      "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 1\n",
    "src/old.py": "x = 1\ny = 2\n",
    "junk.txt": "junk\n",
  };
  await withContext(files, async (ctx) => {
    const patch = [
      "*** Begin Patch",
      "*** Add File: src/new.py",
      "+VALUE = 42",
      "+",
      "+print(VALUE)",
      "*** Update File: src/app.py",
      "@@ def g(self):",
      "-        return 1",
      "+        return 2",
      "*** Delete File: junk.txt",
      "*** Update File: src/old.py",
      "*** Move to: src/renamed.py",
      "@@",
      " x = 1",
      "-y = 2",
      "+y = 3",
      "*** End Patch",
    ].join("\n");
    assertApplied(
      await apply(ctx, patch),
      "Applied patch: created src/new.py, modified src/app.py, deleted junk.txt, renamed src/old.py to src/renamed.py",
    );
    assert.equal(read(ctx, "src/new.py"), "VALUE = 42\n\nprint(VALUE)\n");
    assert.equal(
      read(ctx, "src/app.py"),
      "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n",
    );
    assert.equal(exists(ctx, "junk.txt"), false);
    assert.equal(exists(ctx, "src/old.py"), false);
    assert.equal(read(ctx, "src/renamed.py"), "x = 1\ny = 3\n");
  });
});

Deno.test("applyPatchTool.run() tolerates a code fence, leading prose and wrong hunk counts", async () => {
  await withContext({ "a.py": "a\nb\nc\nd\ne\nf\n" }, async (ctx) => {
    const patch = [
      "Here is the fix:",
      "",
      "```diff",
      "--- a/a.py",
      "+++ b/a.py",
      "@@ -1,7 +1,2 @@",
      " a",
      "-b",
      "+B",
      " c",
      "@@ -5,1 +5,1 @@",
      " e",
      "-f",
      "+F",
      "```",
      "",
      "This changes b and f.",
    ].join("\n");
    assertApplied(await apply(ctx, patch), "Applied patch: modified a.py");
    assert.equal(read(ctx, "a.py"), "a\nB\nc\nd\ne\nF\n");
  });
});

Deno.test("applyPatchTool.run() finds a hunk at an offset and despite trailing whitespace", async () => {
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
  lines[19] = "target   ";
  await withContext({ "a.txt": `${lines.join("\n")}\n` }, async (ctx) => {
    // The patch says line 5, but the target is at line 20 and has trailing spaces in the file.
    const patch =
      "--- a/a.txt\n+++ b/a.txt\n@@ -4,3 +4,3 @@\n line 19\n-target\n+found\n line 21\n";
    assertApplied(await apply(ctx, patch), "Applied patch: modified a.txt");
    lines[19] = "found";
    assert.equal(read(ctx, "a.txt"), `${lines.join("\n")}\n`);
  });
});

Deno.test("applyPatchTool.run() keeps the file mode of a modified file", async () => {
  await withContext({ "run.sh": "echo 1\n" }, async (ctx) => {
    Deno.chmodSync(`${ctx.workspace.dir}/run.sh`, 0o755);
    const patch = "--- a/run.sh\n+++ b/run.sh\n@@ -1 +1 @@\n-echo 1\n+echo 2\n";
    assertApplied(await apply(ctx, patch), "Applied patch: modified run.sh");
    assert.equal(statSync(`${ctx.workspace.dir}/run.sh`).mode & 0o777, 0o755);
  });
});

Deno.test("applyPatchTool.run() reverses a workspace diff exactly", async () => {
  const files = {
    "src/a.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n",
    "src/noeol.txt": "last line without newline",
    "src/win.txt": "one\r\ntwo\r\n",
    "gone.txt": "delete me\n",
    "empty.txt": "",
  };
  await withContext(files, async (ctx) => {
    const dir = ctx.workspace.dir;
    writeFiles(dir, {
      "src/a.py": "def f():\n    return 10\n\n\ndef g():\n    return 2\n\ndef h():\n    pass",
      "src/noeol.txt": "last line without newline\nand one more\n",
      "src/win.txt": "one\r\n2\r\nthree",
      "new/created.txt": "fresh\nfile\n",
      "new/empty.txt": "",
    });
    Deno.removeSync(`${dir}/gone.txt`);
    Deno.removeSync(`${dir}/empty.txt`);
    const diff = await diffTree(ctx.workspace.original, ctx.workspace.dir);
    const wanted = readTree(dir);
    // Back to the original, then the diff must take the workspace to exactly `wanted`.
    for (const path of wanted.keys()) Deno.removeSync(`${dir}/${path}`);
    Deno.removeSync(`${dir}/new`);
    Deno.removeSync(`${dir}/src`, { recursive: true });
    writeSnapshot(ctx.workspace.original, dir);
    const result = await apply(ctx, diff.patch);
    assert.ok(result.ok, !result.ok ? result.message : "");
    assert.deepEqual(readTree(dir), wanted);
  });
});

Deno.test("applyPatchTool.run() rejects paths outside the workspace", async () => {
  await withContext({ "a.txt": "a\n" }, async (ctx, root) => {
    const newFile = (path: string) => `--- /dev/null\n+++ ${path}\n@@ -0,0 +1 @@\n+pwned\n`;
    assertFailed(
      await apply(ctx, newFile("../x")),
      "path_outside_workspace",
      /"\.\.\/x" leaves the workspace/,
    );
    assertFailed(
      await apply(ctx, "--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-root\n+pwned\n"),
      "path_outside_workspace",
      /"\/etc\/passwd" is absolute/,
    );
    writeFileSync(`${root}/outside.txt`, "secret\n");
    Deno.symlinkSync(`${root}/outside.txt`, `${ctx.workspace.dir}/link.txt`);
    Deno.symlinkSync(root, `${ctx.workspace.dir}/linkdir`);
    assertFailed(
      await apply(ctx, "--- a/link.txt\n+++ b/link.txt\n@@ -1 +1 @@\n-secret\n+pwned\n"),
      "path_outside_workspace",
      /"link\.txt" resolves outside the workspace through a symlink/,
    );
    assertFailed(
      await apply(ctx, newFile("b/linkdir/new.txt")),
      "path_outside_workspace",
      /symlink/,
    );
    assert.equal(readFileSync(`${root}/outside.txt`, "utf8"), "secret\n");
    assert.equal(existsSync(`${root}/new.txt`), false);
  });
});

// Attack: run_command can leave many files of up to 64 MiB; one patch deleting or touching them
// all made the orchestrator load every one into memory at once.
Deno.test("applyPatchTool.run() refuses a file over the size limit before reading it", async () => {
  await withContext({ "big.txt": "z\n".repeat(2500), "a.txt": "a\n" }, async (ctx) => {
    const limited = { ...ctx, limits: { maxFileBytes: 4096 } };
    const deleteBig = "--- a/big.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-z\n";
    assertFailed(
      await apply(limited, `--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n${deleteBig}`),
      "file_too_large",
      /^Cannot apply patch to "big\.txt": the file is 4\.9 KiB, over the 4\.0 KiB limit for files that can be edited; delete it with run_command/,
    );
    assert.equal(read(ctx, "a.txt"), "a\n");
    assert.ok(exists(ctx, "big.txt"));
  });
});

Deno.test("applyPatchTool.run() refuses protected paths", async () => {
  await withContext({ "tests/test_a.py": "assert True\n", "src/a.py": "a\n" }, async (ctx) => {
    const patch =
      "--- a/tests/test_a.py\n+++ b/tests/test_a.py\n@@ -1 +1 @@\n-assert True\n+pass\n";
    assertFailed(
      await apply(ctx, patch),
      "protected_path",
      /^Cannot apply patch to "tests\/test_a\.py": the path is protected/,
    );
    // A symlink is no way around it.
    Deno.symlinkSync(`${ctx.workspace.dir}/tests/test_a.py`, `${ctx.workspace.dir}/alias.py`);
    const viaAlias = "--- a/alias.py\n+++ b/alias.py\n@@ -1 +1 @@\n-assert True\n+pass\n";
    assertFailed(await apply(ctx, viaAlias), "protected_path", /"alias\.py"/);
    assert.equal(read(ctx, "tests/test_a.py"), "assert True\n");
  }, { protected_paths: ["tests/"] });
});

Deno.test("applyPatchTool.run() reports not_found when updating or deleting a missing file", async () => {
  await withContext({ "a.txt": "a\n" }, async (ctx) => {
    const update = "--- a/missing.py\n+++ b/missing.py\n@@ -1 +1 @@\n-a\n+b\n";
    assertFailed(
      await apply(ctx, update),
      "not_found",
      /^Cannot update "missing\.py": the file does not exist/,
    );
    const remove = "*** Begin Patch\n*** Delete File: missing.py\n*** End Patch\n";
    assertFailed(await apply(ctx, remove), "not_found", /^Cannot delete "missing\.py"/);
  });
});

Deno.test("applyPatchTool.run() shows the nearest lines of the file when a hunk does not apply", async () => {
  const lines = Array.from({ length: 50 }, (_, i) => `x = ${i + 1}`);
  await withContext({ "src/a.py": `${lines.join("\n")}\n` }, async (ctx) => {
    const patch = [
      "--- a/src/a.py",
      "+++ b/src/a.py",
      "@@ -2,1 +2,1 @@",
      "-x = 2",
      "+x = 200",
      "@@ -39,3 +39,3 @@",
      " x = 39",
      "-x = 40 ",
      "+x = 400",
      " x = 42",
      "",
    ].join("\n");
    const result = await apply(ctx, patch);
    assertFailed(
      result,
      "patch_failed",
      /^Cannot apply patch to "src\/a\.py": hunk 2 context not found near line 39; the file has there:\n/,
    );
    const message = result.ok ? "" : result.message;
    assert.ok(message.includes("\n  39 | x = 39\n  40 | x = 40\n  41 | x = 41\n"), message);
    assert.match(
      message,
      /\nThe patch expects "x = 42" at line 41; re-read the file and retry with its exact lines as context$/,
    );
    // Nothing was written, not even hunk 1.
    assert.equal(read(ctx, "src/a.py"), `${lines.join("\n")}\n`);
  });
});

Deno.test("applyPatchTool.run() refuses to add an existing file and to apply binary changes", async () => {
  await withContext({ "a.txt": "a\n", "img.png": new Uint8Array([137, 80, 0, 1]) }, async (ctx) => {
    const add = "--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+a\n";
    assertFailed(
      await apply(ctx, add),
      "patch_failed",
      /^Cannot create "a\.txt": it already exists/,
    );
    const binary =
      "diff --git a/img.png b/img.png\nindex 1..2 100644\nBinary files a/img.png and b/img.png differ\n";
    assertFailed(await apply(ctx, binary), "patch_failed", /binary changes cannot be applied/);
    const text = "--- a/img.png\n+++ b/img.png\n@@ -1 +1 @@\n-a\n+b\n";
    assertFailed(await apply(ctx, text), "patch_failed", /"img\.png": it is a binary file/);
  });
});

Deno.test("applyPatchTool.run() changes nothing when a later file fails", async () => {
  await withContext({ "first.txt": "one\n", "second.txt": "two\n" }, async (ctx) => {
    const patch = [
      "--- a/first.txt",
      "+++ b/first.txt",
      "@@ -1 +1 @@",
      "-one",
      "+ONE",
      "--- /dev/null",
      "+++ b/created.txt",
      "@@ -0,0 +1 @@",
      "+new",
      "--- a/second.txt",
      "+++ b/second.txt",
      "@@ -1 +1 @@",
      "-not what the file has",
      "+TWO",
      "",
    ].join("\n");
    assertFailed(
      await apply(ctx, patch),
      "patch_failed",
      /^Cannot apply patch to "second\.txt": hunk 1/,
    );
    assert.equal(read(ctx, "first.txt"), "one\n");
    assert.equal(exists(ctx, "created.txt"), false);
  });
});

Deno.test("applyPatchTool.run() reports invalid_input for text that is not a patch", async () => {
  await withContext({ "a.txt": "a\n" }, async (ctx) => {
    assertFailed(
      await apply(ctx, "Change a to b in a.txt"),
      "invalid_input",
      /^Cannot parse patch: no file header found/,
    );
    assertFailed(
      await apply(ctx, "*** Begin Patch\n*** Update File: a.txt\n@@\nfoo\n*** End Patch"),
      "invalid_input",
      /starts with neither " ", "-" nor "\+"/,
    );
    assert.equal(applyPatchTool.input.safeParse({ patch: "x", extra: 1 }).success, false);
  });
});

/** A `*** Begin Patch` envelope adding `n` one-line files. */
function manyFiles(n: number, prefix = "f"): string {
  const sections = Array.from({ length: n }, (_, i) => `*** Add File: ${prefix}${i}.txt\n+x`);
  return `*** Begin Patch\n${sections.join("\n")}\n*** End Patch\n`;
}

Deno.test("applyPatchTool.run() refuses a patch with more files than the limit, writing nothing", async () => {
  // The attack: one apply_patch creating 60,000 files ran for 198 s and returned a 25 MB reply.
  await withContext({ "a.py": "x = 1\n" }, async (ctx) => {
    const result = await apply(ctx, manyFiles(60_000));
    assertFailed(result, "patch_too_large", /changes 60000 files, over the limit of 500/);
    assert.ok(!result.ok && result.message.length < 300);
    assert.equal(exists(ctx, "f0.txt"), false);
  });
});

Deno.test("applyPatchTool.run() refuses a patch text over the byte limit before parsing it", async () => {
  await withContext({ "a.py": "x = 1\n" }, async (ctx) => {
    ctx.limits = { maxWriteBytes: 1000 };
    const big = `*** Begin Patch\n*** Add File: big.txt\n${"+x\n".repeat(1000)}*** End Patch\n`;
    assertFailed(await apply(ctx, big), "patch_too_large", /over the 1000 B limit of one patch/);
    assert.equal(exists(ctx, "big.txt"), false);
  });
});

Deno.test("applyPatchTool.run() refuses a path deeper than the limit", async () => {
  await withContext({ "a.py": "x = 1\n" }, async (ctx) => {
    const deep = `${"d/".repeat(40)}f.txt`;
    const patch = `*** Begin Patch\n*** Add File: ${deep}\n+x\n*** End Patch\n`;
    assertFailed(await apply(ctx, patch), "path_too_deep", /41 folders deep, over the limit of 32/);
    assert.equal(exists(ctx, "d"), false);
  });
});

Deno.test("applyPatchTool.run() stops staging at its deadline and writes nothing", async () => {
  await withContext({ "a.py": "x = 1\n" }, async (ctx) => {
    ctx.limits = { writeTimeoutMs: -1 };
    assertFailed(await apply(ctx, manyFiles(3)), "timeout", /took too long, nothing was changed/);
    assert.equal(exists(ctx, "f0.txt"), false);
  });
});

Deno.test("applyPatchTool.run() names at most 50 changes in its reply", async () => {
  await withContext({ "a.py": "x = 1\n" }, async (ctx) => {
    const result = await apply(ctx, manyFiles(120));
    assert.ok(result.ok);
    assert.match(result.output, /, and 70 more files$/);
    assert.equal(exists(ctx, "f119.txt"), true);
  });
});

Deno.test("applyPatchTool.run() lets other work of the process go on while it applies", async () => {
  // Tested by order, not time: a timer set after the call starts fires before a large patch ends.
  await withContext({ "a.py": "x = 1\n" }, async (ctx) => {
    const order: string[] = [];
    const patching = apply(ctx, manyFiles(400)).then((r) => {
      order.push("patch");
      return r;
    });
    const other = new Promise<void>((resolve) =>
      setTimeout(() => {
        order.push("other");
        resolve();
      }, 0)
    );
    const [result] = await Promise.all([patching, other]);
    assert.ok(result.ok);
    assert.deepEqual(order, ["other", "patch"]);
  });
});
