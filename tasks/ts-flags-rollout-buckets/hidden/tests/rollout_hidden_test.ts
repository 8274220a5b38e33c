import assert from "node:assert/strict";
import { bucketFor, FlagStore, fnv1a32, inRollout, pickVariant } from "../src/mod.ts";
import { booleanRollout } from "./fixtures.ts";

Deno.test("fnv1a32 matches the reference vectors", () => {
  assert.equal(fnv1a32(""), 2166136261);
  assert.equal(fnv1a32("a"), 3826002220);
  assert.equal(fnv1a32("foobar"), 3214735720);
});

Deno.test("bucketFor matches the other SDKs", () => {
  assert.equal(bucketFor("checkout", "user-1"), 4560);
  assert.equal(bucketFor("new-nav", "bob"), 5360);
});

Deno.test("buckets are always within range", () => {
  for (let i = 0; i < 1000; i++) {
    const bucket = bucketFor("range", `user-${i}`);
    assert.ok(bucket >= 0 && bucket < 10000, `bucket ${bucket} for user-${i}`);
  }
});

Deno.test("a 0% rollout includes nobody", () => {
  const store = new FlagStore({ flags: [booleanRollout("dark-launch", 0)] });
  let enabled = 0;
  for (let i = 0; i < 500; i++) if (store.isEnabled("dark-launch", { key: `user-${i}` })) enabled++;
  assert.equal(enabled, 0);
});

Deno.test("a 20% rollout covers about a fifth of users", () => {
  let inside = 0;
  for (let i = 0; i < 2000; i++) if (inRollout("search-v2", `user-${i}`, 20)) inside++;
  assert.ok(inside > 300 && inside < 500, `${inside} of 2000 users`);
});

Deno.test("a 50/50 split puts bob in the second half", () => {
  const rollout = [{ variant: "a", weight: 50 }, { variant: "b", weight: 50 }];
  assert.equal(pickVariant("new-nav", "bob", rollout), "b");
});

Deno.test("positive hashes keep their buckets", () => {
  assert.equal(bucketFor("new-nav", "carol"), 1558);
  assert.equal(inRollout("new-nav", "carol", 15.59), true);
  assert.equal(inRollout("new-nav", "carol", 15.58), false);
});
