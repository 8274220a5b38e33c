import assert from "node:assert/strict";
import { parsePatch } from "../../src/patch/parse.ts";
import { binaryPaths, changedLines, patchPaths } from "../../src/patch/stats.ts";
import { fileDiff } from "../../src/patch/write.ts";

const encode = (text: string) => new TextEncoder().encode(text);

function parsed(text: string) {
  const result = parsePatch(text);
  if (!result.ok) throw new Error(result.message);
  return result.files;
}

Deno.test("changedLines() counts added and removed lines but not headers", () => {
  const patch =
    fileDiff("a.py", encode("x = 1\ny = 2\nz = 3\n"), encode("x = 1\ny = 20\nz = 3\nw = 4\n")) +
    fileDiff("new.py", undefined, encode("print('hi')\n")) +
    fileDiff("old.py", encode("gone\n"), undefined);
  assert.match(patch, /^--- a\/a\.py$/m);
  assert.equal(changedLines(patch), 2 + 1 + 1 + 1);
  assert.equal(changedLines(""), 0);

  const envelope = "*** Begin Patch\n*** Update File: a.py\n@@\n-y = 2\n+y = 20\n*** End Patch\n";
  assert.equal(changedLines(envelope), 2);

  const noNewline = "--- a/a\n+++ b/a\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n";
  assert.equal(changedLines(noNewline), 2);
});

Deno.test("changedLines() counts removed and added lines that start with dashes or pluses", () => {
  // Regression: a removed "--" line ("---" in the patch) or an added "++" line ("+++") was taken
  // for a file header and not counted.
  const patch = fileDiff(
    "doc.md",
    encode("---\ntitle: a\n---\nbody\n-- sig\n"),
    encode("title: b\nbody\n++ more\n"),
  );
  assert.equal(changedLines(patch), 4 + 2);

  // Models miscount hunks: extra lines still count, and a hunk promising too many ends at `diff`.
  const short = "--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-a\n-b\n+c\n";
  assert.equal(changedLines(short), 3);
  const long = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,9 +1,9 @@\n-a\n+b\n" +
    "diff --git a/y b/y\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-c\n+d\n";
  assert.equal(changedLines(long), 4);
});

Deno.test("changedLines() counts nothing in text that is not a patch", () => {
  assert.equal(changedLines("I changed median() to average the middle values.\n- done\n"), 0);
});

Deno.test("patchPaths() names both sides of every section, normalized, each once", () => {
  const patch = "diff --git a/tests/a.py b/tests/moved.py\nrename from tests/a.py\n" +
    "rename to tests/moved.py\n" +
    "diff -ruN a/./src/x.py b/./src/x.py\n--- a/./src/x.py\n+++ b/./src/x.py\n@@ -1 +1 @@\n-a\n+b\n" +
    "*** not part of it\n--- /dev/null\n+++ b/src/x.py\n@@ -0,0 +1 @@\n+c\n";
  assert.deepEqual(patchPaths(parsed(patch)), ["src/x.py", "tests/a.py", "tests/moved.py"]);
});

Deno.test("patchPaths() reads a name git quoted as the file it names", () => {
  // Regression: one reader kept `"a/tests/t\303\251st.py"` quoted, so protected_path_edits
  // missed the file `tests/tést.py`.
  const patch = 'diff --git "a/tests/t\\303\\251st.py" "b/tests/t\\303\\251st.py"\n' +
    '--- "a/tests/t\\303\\251st.py"\n+++ "b/tests/t\\303\\251st.py"\n@@ -1 +1 @@\n-a\n+b\n';
  assert.deepEqual(patchPaths(parsed(patch)), ["tests/tést.py"]);
});

Deno.test("binaryPaths() names binary sections of git and plain diffs", () => {
  const patch = "diff --git a/img.png b/img.png\nindex 1..2 100644\n" +
    "Binary files a/img.png and b/img.png differ\n" +
    "diff -u a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n" +
    "Binary files a/new.bin and /dev/null differ\n" +
    "diff --git a/blob b/blob\nnew file mode 100644\nGIT binary patch\nliteral 2\nJcmZQz0000\n";
  const files = parsed(patch);
  assert.deepEqual(binaryPaths(files), ["img.png", "new.bin", "blob"]);
  assert.equal(changedLines(files), 2);
});
