import assert from "node:assert/strict";
import { parsePatch } from "../../src/patch/parse.ts";

function parsed(text: string) {
  const result = parsePatch(text);
  if (!result.ok) throw new Error(result.message);
  return result.files;
}

Deno.test("parsePatch() reads git headers: new, deleted, renamed files and modes", () => {
  const files = parsed(
    [
      "diff --git a/new.sh b/new.sh",
      "new file mode 100755",
      "index 0000000..1111111",
      "--- /dev/null",
      "+++ b/new.sh",
      "@@ -0,0 +1 @@",
      "+echo hi",
      "diff --git a/gone.txt b/gone.txt",
      "deleted file mode 100644",
      "diff --git a/old name.py b/new name.py",
      "similarity index 100%",
      "rename from old name.py",
      "rename to new name.py",
      "diff --git a/run.sh b/run.sh",
      "old mode 100644",
      "new mode 100755",
      'diff --git "a/sp\\303\\244ce" "b/sp\\303\\244ce"',
      "new file mode 100644",
      "",
    ].join("\n"),
  );
  assert.deepEqual(
    files.map((f) => [f.from, f.to, f.mode, f.hunks.length]),
    [
      [null, "new.sh", 0o755, 1],
      ["gone.txt", null, undefined, 0],
      ["old name.py", "new name.py", undefined, 0],
      ["run.sh", "run.sh", 0o755, 0],
      [null, "späce", 0o644, 0],
    ],
  );
});

Deno.test("parsePatch() recounts hunks whose stated counts are wrong", () => {
  const [file] = parsed("--- a/x\n+++ b/x\n@@ -1,9 +1,1 @@\n a\n-b\n+c\n d\n@@ -7 +7 @@\n-g\n+h\n");
  assert.equal(file.hunks.length, 2);
  assert.deepEqual(file.hunks[0].lines.map((l) => l.op + l.text), [" a", "-b", "+c", " d"]);
  assert.equal(file.hunks[1].at, 6);
});

Deno.test("parsePatch() keeps removed and added lines that look like file headers", () => {
  // "-- a" removed and "++ b" added print as "--- a" / "+++ b", which also start a new file.
  const [file] = parsed("--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1,2 @@\n x\n--- a\n+++ b\n");
  assert.deepEqual(file.hunks[0].lines.map((l) => l.op + l.text), [" x", "--- a", "+++ b"]);
});

Deno.test("parsePatch() treats stripped blank context lines as context, not trailing blank lines", () => {
  const [file] = parsed("--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n\n\nSome prose after\n");
  assert.deepEqual(file.hunks[0].lines.map((l) => l.op + l.text), [" a", " ", "-b", "+c"]);
});

Deno.test("parsePatch() reads the Codex envelope with anchors, moves and end-of-file markers", () => {
  const files = parsed(
    [
      "Here is the change:",
      "*** Begin Patch",
      "*** Add File: docs/new.md",
      "+# Title",
      "+",
      "+body",
      "*** Update File: src/a.py",
      "*** Move to: src/b.py",
      "@@ class A:",
      "@@     def f(self):",
      "-        return 1",
      "+        return 2",
      "@@",
      " tail",
      "+more",
      "*** End of File",
      "*** Delete File: old.txt",
      "*** End Patch",
    ].join("\n"),
  );
  assert.deepEqual(files.map((f) => [f.from, f.to]), [
    [null, "docs/new.md"],
    ["src/a.py", "src/b.py"],
    ["old.txt", null],
  ]);
  assert.deepEqual(files[0].hunks[0].lines.map((l) => l.text), ["# Title", "", "body"]);
  assert.deepEqual(files[1].hunks[0].anchors, ["class A:", "def f(self):"]);
  assert.equal(files[1].hunks[1].atEof, true);
});

Deno.test("parsePatch() rejects text without a file header", () => {
  const result = parsePatch("Please change line 3 to return 2.");
  assert.equal(result.ok, false);
  assert.match(!result.ok ? result.message : "", /^Cannot parse patch: no file header found; /);
  const hunkOnly = parsePatch("@@ -1 +1 @@\n-a\n+b\n");
  assert.match(!hunkOnly.ok ? hunkOnly.message : "", /line 1 starts a hunk before any file header/);
});

Deno.test("parsePatch() keeps a tab in a file name and drops what diff writes after one", () => {
  // Regression: a name was cut at its first tab, so "a\tb.txt" was read as "a".
  const names = (text: string) => parsed(text).map((f) => [f.from, f.to]);
  const body = "@@ -1 +1 @@\n-a\n+b\n";
  assert.deepEqual(names(`--- a/x\ty.txt\n+++ b/x\ty.txt\n${body}`), [["x\ty.txt", "x\ty.txt"]]);
  assert.deepEqual(names(`--- "a/x\\ty.txt"\n+++ "b/x\\ty.txt"\n${body}`), [[
    "x\ty.txt",
    "x\ty.txt",
  ]]);
  const stamped = "--- a/x.txt\t2024-01-31 10:00:00.000000000 +0100\n" +
    `+++ b/x.txt\tWed Jan 31 10:00:00 2024\n${body}`;
  assert.deepEqual(names(stamped), [["x.txt", "x.txt"]]);
  assert.deepEqual(names(`--- a/my file\t\n+++ b/my file\t\n${body}`), [["my file", "my file"]]);
});

Deno.test("parsePatch() starts a new file at another tool's diff line after a git section", () => {
  // Regression: a pure rename section took the next file's ---/+++ lines as its own and lost the rename.
  const files = parsed(
    "diff --git a/old.py b/new.py\nsimilarity index 100%\nrename from old.py\nrename to new.py\n" +
      "diff -ruN a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n",
  );
  assert.deepEqual(files.map((f) => [f.from, f.to, f.hunks.length]), [
    ["old.py", "new.py", 0],
    ["x.py", "x.py", 1],
  ]);
});

Deno.test("parsePatch() reads a lone Binary files line as its own binary section", () => {
  // Regression: GNU diff's line marked the file before it as binary.
  const files = parsed(
    "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n" + 'Binary files "a/p\\tq.bin" and /dev/null differ\n',
  );
  assert.deepEqual(files.map((f) => [f.from, f.to, f.binary ?? false]), [
    ["x", "x", false],
    ["p\tq.bin", null, true],
  ]);
});
