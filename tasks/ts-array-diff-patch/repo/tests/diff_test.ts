import assert from "node:assert/strict";
import { lcs } from "../src/lcs.ts";
import { diff, similarity } from "../src/diff.ts";
import { formatDiff } from "../src/format.ts";

Deno.test("lcs of two strings' characters", () => {
  assert.deepEqual(lcs([..."ABCBDAB"], [..."BDCABA"]).length, 4);
});

Deno.test("diff groups operations", () => {
  assert.deepEqual(diff(["a", "b", "c"], ["a", "x", "c"]), [
    { type: "equal", items: ["a"] },
    { type: "delete", items: ["b"] },
    { type: "insert", items: ["x"] },
    { type: "equal", items: ["c"] },
  ]);
});

Deno.test("diff with custom equality", () => {
  const ops = diff([{ id: 1 }, { id: 2 }], [{ id: 2 }], (x, y) => x.id === y.id);
  assert.deepEqual(ops.map((o) => o.type), ["delete", "equal"]);
});

Deno.test("formats a diff", () => {
  assert.equal(formatDiff(diff([1, 2], [2, 3])), "- 1\n  2\n+ 3");
});

Deno.test("similarity ratio", () => {
  assert.equal(similarity([1, 2, 3, 4], [1, 2, 5, 4]), 0.75);
  assert.equal(similarity([], []), 1);
});
