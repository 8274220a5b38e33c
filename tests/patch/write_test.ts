import assert from "node:assert/strict";
import { parsePatch } from "../../src/patch/parse.ts";
import { fileDiff } from "../../src/patch/write.ts";

const encoder = new TextEncoder();

Deno.test("fileDiff() handles both sides given directly", () => {
  const text = fileDiff("x.txt", encoder.encode("a\n"), encoder.encode("b\n"));
  assert.equal(
    text,
    "diff --git a/x.txt b/x.txt\n--- a/x.txt\n+++ b/x.txt\n@@ -1,1 +1,1 @@\n-a\n+b\n",
  );
  const stat = { binary: [] as string[] };
  fileDiff("y.bin", new Uint8Array([0]), new Uint8Array([1]), stat);
  assert.deepEqual(stat.binary, ["y.bin"]);
});

Deno.test("fileDiff() quotes a name git would quote, and the parser reads it back", () => {
  // Regression: a name with a tab was written bare and read back cut at the tab; a newline in a
  // name could start a header line of its own.
  for (const name of ["a\tb.txt", "line\nbreak.txt", 'q"uote.txt', "back\\slash.txt", "tést.txt"]) {
    const text = fileDiff(name, encoder.encode("a\n"), encoder.encode("b\n"));
    assert.equal(text.split("\n").length, 7, text);
    const parsed = parsePatch(text);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.files.map((f) => [f.from, f.to]), [[name, name]]);
  }
  assert.match(fileDiff("a\tb", undefined, encoder.encode("x\n")), /^\+\+\+ "b\/a\\tb"$/m);
  assert.match(
    fileDiff("tést.txt", undefined, new Uint8Array([0])),
    /^Binary files \/dev\/null and b\/tést\.txt differ$/m,
  );
});

Deno.test("fileDiff() ends a name with a space with a tab, as git does", () => {
  const text = fileDiff("my file.txt", encoder.encode("a\n"), encoder.encode("b\n"));
  assert.match(text, /^--- a\/my file\.txt\t$/m);
  const parsed = parsePatch(text);
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.files.map((f) => f.to), ["my file.txt"]);
});
