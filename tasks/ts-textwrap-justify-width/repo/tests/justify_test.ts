import assert from "node:assert/strict";
import { formatText, justify, justifyLine } from "../src/mod.ts";

Deno.test("justifyLine spreads spaces evenly", () => {
  assert.equal(justifyLine(["a", "b", "c"], 9), "a   b   c");
});

Deno.test("justifyLine gives leftmost gaps the extra spaces", () => {
  assert.equal(justifyLine(["aa", "bb", "cc", "dd"], 13), "aa  bb  cc dd");
});

Deno.test("justify leaves the last line ragged", () => {
  assert.deepEqual(justify("The quick brown fox jumps over the lazy dog", { width: 16 }), [
    "The  quick brown",
    "fox  jumps  over",
    "the lazy dog",
  ]);
});

Deno.test("formatText handles paragraphs and prefixes", () => {
  assert.equal(formatText("one two three\n\nfour five", { width: 11, prefix: "> " }), "> one two\n> three\n>\n> four five");
});
