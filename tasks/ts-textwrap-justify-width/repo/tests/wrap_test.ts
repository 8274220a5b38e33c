import assert from "node:assert/strict";
import { displayWidth, padEnd, wrap } from "../src/mod.ts";

const fox = "The quick brown fox jumps over the lazy dog";

Deno.test("wrap breaks at the width", () => {
  assert.deepEqual(wrap(fox, { width: 15 }), ["The quick brown", "fox jumps over", "the lazy dog"]);
});

Deno.test("wrap splits long words unless told not to", () => {
  assert.deepEqual(wrap("see https://example.com/a/very/long/path", { width: 12 }), ["see", "https://exam", "ple.com/a/ve", "ry/long/path"]);
  assert.deepEqual(wrap("a supercalifragilistic b", { width: 6, breakLongWords: false }), ["a", "supercalifragilistic", "b"]);
});

Deno.test("displayWidth counts wide and zero-width characters", () => {
  assert.equal(displayWidth("abc"), 3);
  assert.equal(displayWidth("日本語"), 6);
  assert.equal(displayWidth("cafe\u0301"), 4);
  assert.equal(padEnd("日本", 6), "日本  ");
});

Deno.test("wrap keeps CJK lines within the width", () => {
  assert.deepEqual(wrap("東京 大阪 名古屋 札幌", { width: 10 }), ["東京 大阪", "名古屋", "札幌"]);
});
