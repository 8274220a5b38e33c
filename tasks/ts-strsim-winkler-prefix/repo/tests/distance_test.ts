import assert from "node:assert/strict";
import { levenshtein, levenshteinSimilarity, normalize, osaDistance } from "../src/mod.ts";

Deno.test("levenshtein counts edits", () => {
  assert.equal(levenshtein("kitten", "sitting"), 3);
  assert.equal(levenshtein("", "abc"), 3);
  assert.equal(levenshtein("flaw", "lawn"), 2);
  assert.equal(levenshtein("sitting", "kitten"), 3);
});

Deno.test("osaDistance counts adjacent transpositions once", () => {
  assert.equal(osaDistance("ca", "ac"), 1);
  assert.equal(osaDistance("ca", "abc"), 3);
});

Deno.test("levenshteinSimilarity scales to [0, 1]", () => {
  assert.equal(levenshteinSimilarity("", ""), 1);
  assert.equal(levenshteinSimilarity("abcd", "abcf"), 0.75);
});

Deno.test("normalize folds case, accents and whitespace", () => {
  assert.equal(normalize("  Crème   Brûlée "), "creme brulee");
  assert.equal(normalize("ABC", { caseSensitive: true }), "ABC");
});
