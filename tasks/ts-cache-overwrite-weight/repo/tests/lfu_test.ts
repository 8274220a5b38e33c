import assert from "node:assert/strict";
import { createCache, LfuCache, memoize } from "../src/mod.ts";

Deno.test("LfuCache evicts the least frequently used entry", () => {
  const cache = new LfuCache<string, number>({ maxWeight: 2 });
  cache.set("a", 1);
  cache.set("b", 2);
  cache.get("a");
  cache.get("a");
  cache.get("b");
  cache.set("c", 3);
  assert.deepEqual(cache.keys().sort(), ["a", "c"]);
});

Deno.test("LfuCache breaks ties by recency", () => {
  const cache = new LfuCache<string, number>({ maxWeight: 2 });
  cache.set("a", 1);
  cache.set("b", 2);
  cache.set("c", 3);
  assert.equal(cache.has("a"), false);
  assert.equal(cache.has("b"), true);
});

Deno.test("LfuCache delete releases weight", () => {
  const cache = new LfuCache<string, number>({ maxWeight: 5 });
  cache.set("a", 1);
  cache.set("b", 2);
  cache.delete("a");
  assert.equal(cache.weight, 1);
  assert.equal(cache.size, 1);
});

Deno.test("createCache picks the policy", () => {
  assert.ok(createCache("lfu", { maxWeight: 1 }) instanceof LfuCache);
  assert.throws(() => createCache("lru", { maxWeight: 0 }), /maxWeight must be positive/);
});

Deno.test("memoize calls the function once per argument", () => {
  let calls = 0;
  const square = memoize((n: number) => (calls++, n * n), createCache<number, number>("lru", { maxWeight: 10 }));
  assert.equal(square(4), 16);
  assert.equal(square(4), 16);
  assert.equal(calls, 1);
});
