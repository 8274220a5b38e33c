import assert from "node:assert/strict";
import { applyFilePatches } from "../../src/patch/apply.ts";
import { parsePatch } from "../../src/patch/parse.ts";
import { fileDiff } from "../../src/patch/write.ts";

const encoder = new TextEncoder();

function parsed(text: string) {
  const result = parsePatch(text);
  if (!result.ok) throw new Error(result.message);
  return result.files;
}

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
