import { test } from "node:test";
import assert from "node:assert/strict";
import { slug } from "../src/index.js";

test("lowercases and joins words with hyphens", () => {
  assert.equal(slug("Getting Started"), "getting-started");
});

test("drops punctuation but keeps hyphens and underscores", () => {
  assert.equal(slug("What's new in v2.0?"), "whats-new-in-v20");
  assert.equal(slug("snake_case and kebab-case"), "snake_case-and-kebab-case");
});

test("keeps letters of other scripts", () => {
  assert.equal(slug("Überblick über die API"), "überblick-über-die-api");
});
