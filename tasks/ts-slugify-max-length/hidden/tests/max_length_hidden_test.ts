import assert from "node:assert/strict";
import { slugify } from "../src/slugify.ts";

Deno.test("maxLength cuts at a word boundary", () => {
  assert.equal(slugify("The quick brown fox jumps", { maxLength: 15 }), "the-quick-brown");
  assert.equal(slugify("The quick brown fox jumps", { maxLength: 14 }), "the-quick");
});

Deno.test("maxLength hard-cuts a single long first word", () => {
  assert.equal(slugify("Supercalifragilistic expialidocious", { maxLength: 5 }), "super");
});

Deno.test("maxLength never leaves a trailing separator", () => {
  assert.equal(slugify("ab cd ef", { maxLength: 3, separator: "__" }), "ab");
  assert.equal(slugify("abc def", { maxLength: 4 }), "abc");
});

Deno.test("maxLength larger than the slug changes nothing", () => {
  assert.equal(slugify("Short title", { maxLength: 100 }), "short-title");
  assert.equal(slugify("exact fit", { maxLength: 9 }), "exact-fit");
});

Deno.test("invalid maxLength is rejected", () => {
  assert.throws(() => slugify("x", { maxLength: 0 }), RangeError);
  assert.throws(() => slugify("x", { maxLength: 2.5 }), RangeError);
});

Deno.test("no maxLength keeps full slugs", () => {
  assert.equal(slugify("The quick brown fox jumps"), "the-quick-brown-fox-jumps");
});
