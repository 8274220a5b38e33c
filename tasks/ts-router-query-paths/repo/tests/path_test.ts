import assert from "node:assert/strict";
import { normalizeTarget, pathSegments } from "../src/path.ts";
import { parseQuery } from "../src/query.ts";

Deno.test("collapses duplicate slashes and drops trailing slash", () => {
  assert.deepEqual(normalizeTarget("//users///42/"), { path: "/users/42", query: "" });
  assert.deepEqual(normalizeTarget("/"), { path: "/", query: "" });
});

Deno.test("splits off the query and drops the fragment", () => {
  assert.deepEqual(normalizeTarget("/a/b?x=1#frag"), { path: "/a/b", query: "x=1" });
});

Deno.test("decodes each segment", () => {
  assert.deepEqual(pathSegments("/files/a%20b/c"), ["files", "a b", "c"]);
});

Deno.test("parses repeated keys and plus signs", () => {
  assert.deepEqual(parseQuery("a=1&b=x+y&a=2&flag"), { a: ["1", "2"], b: "x y", flag: "" });
});
