import assert from "node:assert/strict";
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
