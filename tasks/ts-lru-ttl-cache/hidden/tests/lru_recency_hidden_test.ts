import assert from "node:assert/strict";
import { LruCache } from "../src/lru.ts";
import { ManualClock } from "../src/clock.ts";

Deno.test("get marks an entry as most recently used", () => {
  const cache = new LruCache<string, number>({ capacity: 3 });
  cache.set("a", 1).set("b", 2).set("c", 3);
  cache.get("a");
  assert.deepEqual(cache.keys(), ["b", "c", "a"]);
});

Deno.test("a recently read entry survives eviction", () => {
  const cache = new LruCache<string, number>({ capacity: 2 });
  cache.set("a", 1).set("b", 2);
  assert.equal(cache.get("a"), 1);
  cache.set("c", 3);
  assert.equal(cache.peek("a"), 1);
  assert.equal(cache.peek("b"), undefined);
});

Deno.test("has and peek do not change recency", () => {
  const cache = new LruCache<string, number>({ capacity: 2 });
  cache.set("a", 1).set("b", 2);
  assert.equal(cache.has("a"), true);
  assert.equal(cache.peek("a"), 1);
  cache.set("c", 3);
  assert.deepEqual(cache.keys(), ["b", "c"]);
});

Deno.test("reading keeps ttl unchanged", () => {
  const clock = new ManualClock();
  const cache = new LruCache<string, number>({ capacity: 2, ttlMs: 10, clock });
  cache.set("a", 1);
  clock.advance(5);
  assert.equal(cache.get("a"), 1);
  clock.advance(5);
  assert.equal(cache.get("a"), undefined);
  assert.equal(cache.stats.hitRate(), 0.5);
});
