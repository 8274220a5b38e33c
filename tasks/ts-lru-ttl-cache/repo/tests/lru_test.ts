import assert from "node:assert/strict";
import { LruCache } from "../src/lru.ts";
import { ManualClock } from "../src/clock.ts";

Deno.test("stores and returns values", () => {
  const cache = new LruCache<string, number>({ capacity: 2 });
  cache.set("a", 1).set("b", 2);
  assert.equal(cache.get("a"), 1);
  assert.equal(cache.get("zzz"), undefined);
  assert.equal(cache.stats.hits, 1);
  assert.equal(cache.stats.misses, 1);
});

Deno.test("evicts the oldest insertion when full", () => {
  const cache = new LruCache<string, number>({ capacity: 2 });
  cache.set("a", 1).set("b", 2).set("c", 3);
  assert.deepEqual(cache.keys(), ["b", "c"]);
  assert.equal(cache.stats.evictions, 1);
});

Deno.test("entries expire after their ttl", () => {
  const clock = new ManualClock(1000);
  const cache = new LruCache<string, string>({ capacity: 4, ttlMs: 50, clock });
  cache.set("k", "v");
  clock.advance(49);
  assert.equal(cache.peek("k"), "v");
  clock.advance(1);
  assert.equal(cache.has("k"), false);
  assert.equal(cache.stats.expirations, 1);
});

Deno.test("rejects a zero capacity", () => {
  assert.throws(() => new LruCache({ capacity: 0 }), RangeError);
});
