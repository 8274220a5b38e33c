import assert from "node:assert/strict";
import { applyFilePatches, parsePatch } from "../../src/tools/_patch.ts";
import { fileDiff } from "../../src/workspace/diff.ts";

const encoder = new TextEncoder();

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

/** A small deterministic PRNG, so a failing case can be replayed. */
function random(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
}

Deno.test("applyFilePatches() reproduces random edits from fileDiff exactly", async () => {
  const words = ["a", "b", "", "  x  ", "-- c", "++ d", "--- e", "+++ f", "@@ g", "\\ h"];
  const next = random(42);
  const pick = <T>(items: T[]) => items[Math.floor(next() * items.length)];
  const text = (n: number) => {
    const eol = pick(["\n", "\r\n"]);
    const lines = Array.from({ length: n }, () => pick(words));
    return lines.join(eol) + (n > 0 && next() < 0.7 ? eol : "");
  };
  const dir = await Deno.makeTempDir();
  try {
    for (let round = 0; round < 300; round++) {
      const before = text(Math.floor(next() * 12));
      const lines = before.split("\n");
      for (let edits = Math.floor(next() * 4); edits >= 0; edits--) {
        const at = Math.floor(next() * (lines.length + 1));
        if (next() < 0.5) lines.splice(at, 1);
        else lines.splice(at, 0, pick(words));
      }
      const after = next() < 0.2 ? text(Math.floor(next() * 12)) : lines.join("\n");
      await Deno.writeTextFile(`${dir}/f.txt`, before);
      const patch = fileDiff("f.txt", encoder.encode(before), encoder.encode(after));
      if (!patch.includes("@@")) continue;
      const result = await applyFilePatches(dir, parsed(patch));
      assert.ok(result.ok, `round ${round}: ${!result.ok && result.message}\n${patch}`);
      assert.equal(await Deno.readTextFile(`${dir}/f.txt`), after, `round ${round}:\n${patch}`);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("applyFilePatches() explains hunks that run past the end, miss an anchor or overlap", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.py`, "x = 1\nx = 2\nx = 3\n");
    const message = async (patch: string) => {
      const result = await applyFilePatches(dir, parsed(patch));
      assert.equal(result.ok, false);
      return result.ok ? "" : result.message;
    };
    assert.equal(
      await message("--- a/a.py\n+++ b/a.py\n@@ -2,3 +2,3 @@\n x = 2\n x = 3\n-x = 4\n+y\n"),
      'Cannot apply patch to "a.py": hunk 1 context not found near line 2; the file has there:\n' +
        "  2 | x = 2\n  3 | x = 3\n" +
        'The file ends at line 3, but the patch expects "x = 4" after it; re-read the file and retry with its exact lines as context',
    );
    assert.match(
      await message(
        "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-x = 1\n+y\n*** End Patch",
      ),
      /^Cannot apply patch to "a\.py": hunk 1 anchor "def f\(\):" not found; /,
    );
    assert.match(
      await message("--- a/a.py\n+++ b/a.py\n@@ -3 +3 @@\n-x = 3\n+y\n@@ -1 +1 @@\n-x = 1\n+z\n"),
      /hunk 2 matches only before the end of hunk 1; put hunks in file order/,
    );
    assert.equal(await Deno.readTextFile(`${dir}/a.py`), "x = 1\nx = 2\nx = 3\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
