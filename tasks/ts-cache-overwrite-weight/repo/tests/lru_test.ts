import assert from "node:assert/strict";
import { LruCache, utf8Weight } from "../src/mod.ts";

Deno.test("LruCache evicts the least recently used entry", () => {
  const cache = new LruCache<string, number>({ maxWeight: 2 });
  cache.set("a", 1);
  cache.set("b", 2);
  cache.get("a");
  cache.set("c", 3);
  assert.deepEqual(cache.keys(), ["a", "c"]);
  assert.equal(cache.stats.evictions, 1);
});

Deno.test("LruCache bounds total weight", () => {
  const cache = new LruCache<string, string>({ maxWeight: 10, weigh: utf8Weight });
  cache.set("x", "12345");
  cache.set("y", "1234");
  cache.set("z", "123");
  assert.deepEqual(cache.keys(), ["y", "z"]);
  assert.equal(cache.weight, 7);
});

Deno.test("LruCache reports removals with their cause", () => {
  const log: string[] = [];
  const cache = new LruCache<string, number>({ maxWeight: 1, onRemove: (k, v, cause) => log.push(`${k}=${v}:${cause}`) });
  cache.set("a", 1);
  cache.set("b", 2);
  cache.delete("b");
  assert.deepEqual(log, ["a=1:evicted", "b=2:deleted"]);
});

Deno.test("LruCache counts hits and misses", () => {
  const cache = new LruCache<string, number>({ maxWeight: 3 });
  cache.set("a", 1);
  cache.get("a");
  cache.get("b");
  assert.deepEqual(cache.stats.snapshot(), { hits: 1, misses: 1, evictions: 0, hitRate: 0.5 });
});
