import assert from "node:assert/strict";
import { displayWidth, formatText, justify, justifyLine, wrap } from "../src/mod.ts";

Deno.test("justifyLine puts one extra space in the first gap", () => {
  assert.equal(justifyLine(["one", "two", "three"], 14), "one  two three");
});

Deno.test("justifyLine puts extra spaces in the first gaps", () => {
  assert.equal(justifyLine(["a", "b", "c", "d", "e"], 11), "a  b  c d e");
});

Deno.test("justified lines are exactly the width", () => {
  const text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore";
  const lines = justify(text, { width: 24 });
  assert.deepEqual(lines.slice(0, -1).map((l) => l.length), lines.slice(0, -1).map(() => 24));
  assert.equal(lines[0], "Lorem  ipsum  dolor  sit");
});

Deno.test("wrap never exceeds the width with wide characters", () => {
  const lines = wrap("日本語 の テキスト を 折り返す テスト です", { width: 12 });
  assert.deepEqual(lines.filter((l) => displayWidth(l) > 12), []);
  assert.deepEqual(lines, ["日本語 の", "テキスト を", "折り返す", "テスト です"]);
});

Deno.test("a wide first word is measured by columns", () => {
  assert.deepEqual(wrap("漢字漢字 a", { width: 10 }), ["漢字漢字 a"]);
  assert.deepEqual(wrap("漢字漢字 abc", { width: 10 }), ["漢字漢字", "abc"]);
});

Deno.test("justify with wide characters fills the columns", () => {
  assert.deepEqual(justify("東京 大阪 名古屋 札幌 福岡", { width: 11 }), ["東京   大阪", "名古屋 札幌", "福岡"]);
});

Deno.test("combining accents do not push words to the next line", () => {
  assert.deepEqual(wrap("cafe\u0301 cafe\u0301", { width: 9 }), ["cafe\u0301 cafe\u0301"]);
});

Deno.test("formatText justifies quoted paragraphs", () => {
  assert.equal(formatText("aa bb cc dd ee", { width: 12, prefix: "| ", align: "justify" }), "| aa  bb  cc\n| dd ee");
});

Deno.test("plain ASCII wrapping is unchanged", () => {
  assert.deepEqual(wrap("a bb ccc dddd", { width: 6 }), ["a bb", "ccc", "dddd"]);
});
