import assert from "node:assert/strict";
import { parseLinkHeader, splitTarget } from "../src/mod.ts";

Deno.test("parseLinkHeader reads rels", () => {
  assert.deepEqual(parseLinkHeader('</u?page=2>; rel="next", </u?page=5>; rel="last"'), { next: "/u?page=2", last: "/u?page=5" });
  assert.deepEqual(parseLinkHeader('<https://x/a?b=1,2>; rel="next prev"'), { next: "https://x/a?b=1,2", prev: "https://x/a?b=1,2" });
  assert.deepEqual(parseLinkHeader(undefined), {});
});

Deno.test("splitTarget separates path and query", () => {
  assert.deepEqual(splitTarget("/users?page=2&per_page=10"), { path: "/users", query: { page: "2", per_page: "10" } });
});
