import assert from "node:assert/strict";
import { like, parseFilter, where } from "../src/mod.ts";
import { ids, people } from "./fixtures.ts";

Deno.test("OR of ANDs without parentheses", () => {
  assert.deepEqual(ids(where(people, "age < 20 AND city = 'Paris' OR age > 50 AND city = 'Lille'")), [4, 5]);
});

Deno.test("AND on the left of OR", () => {
  assert.deepEqual(ids(where(people, "city = 'Paris' AND age > 30 OR city = 'Nice'")), [1, 3]);
});

Deno.test("NOT binds tighter than AND and OR", () => {
  assert.deepEqual(ids(where(people, "NOT city = 'Paris' AND age < 30 OR id = 1")), [1, 2]);
});

Deno.test("parseFilter builds OR at the root", () => {
  assert.equal(parseFilter("a = 1 OR b = 2 AND c = 3").type, "or");
});

Deno.test("like escapes the dot", () => {
  assert.equal(like("dan@exampleXcom", "%@example.com"), false);
});

Deno.test("like escapes plus, parentheses and brackets", () => {
  assert.equal(like("a+b (c) [d]", "a+b (c) [d]"), true);
  assert.equal(like("aab", "a+b"), false);
});

Deno.test("like escapes dollar, caret, pipe and backslash", () => {
  assert.equal(like("^cost$|x\\y", "^cost$|x\\y"), true);
  assert.equal(like("cost", "cost|x"), false);
});

Deno.test("like still supports wildcards", () => {
  assert.equal(like("report-2024.pdf", "report-____.%"), true);
  assert.equal(like("report-24.pdf", "report-____.%"), false);
});

Deno.test("where with LIKE on a domain", () => {
  assert.deepEqual(ids(where(people, "email LIKE '%.example.org'")), [3]);
});
