import assert from "node:assert/strict";
import { Router } from "../src/router.ts";
import { normalizeTarget } from "../src/path.ts";

function app(): Router<string> {
  return new Router<string>()
    .add("GET", "/users", "listUsers")
    .add("GET", "/users/:id", "showUser")
    .add("GET", "/redirect", "redirect");
}

Deno.test("trailing slash before the query still matches", () => {
  const m = app().match("GET", "/users/?page=2");
  assert.equal(m?.handler, "listUsers");
  assert.deepEqual(m?.query, { page: "2" });
});

Deno.test("query values containing double slashes are preserved", () => {
  const m = app().match("GET", "/redirect?to=https://example.com//a");
  assert.equal(m?.handler, "redirect");
  assert.deepEqual(m?.query, { to: "https://example.com//a" });
});

Deno.test("trailing slash before a fragment still matches", () => {
  assert.deepEqual(app().match("GET", "/users/7/#top")?.params, { id: "7" });
});

Deno.test("normalizeTarget leaves the query untouched", () => {
  assert.deepEqual(normalizeTarget("/a//b/?u=x//y/"), { path: "/a/b", query: "u=x//y/" });
});

Deno.test("query without trailing slash keeps working", () => {
  assert.deepEqual(app().match("GET", "/users/9?x=1")?.params, { id: "9" });
});

Deno.test("unknown paths do not match", () => {
  assert.equal(app().match("GET", "/nope/?a=1"), null);
});
