import assert from "node:assert/strict";
import { bucketFor, fnv1a32 } from "../src/hash/mod.ts";

Deno.test("fnv1a32 is deterministic and input-sensitive", () => {
  assert.equal(fnv1a32("checkout"), fnv1a32("checkout"));
  assert.notEqual(fnv1a32("checkout"), fnv1a32("checkouts"));
});

Deno.test("bucketFor depends on salt and key", () => {
  assert.equal(bucketFor("new-nav", "carol"), 1558);
  assert.notEqual(bucketFor("new-nav", "carol"), bucketFor("other", "carol"));
});
