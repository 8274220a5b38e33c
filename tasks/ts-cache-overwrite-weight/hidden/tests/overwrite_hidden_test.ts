import assert from "node:assert/strict";
import { createCache, LfuCache, LruCache, utf8Weight } from "../src/mod.ts";

Deno.test("LruCache overwrite keeps the weight of one entry", () => {
  const cache = new LruCache<string, number>({ maxWeight: 3 });
  cache.set("a", 1);
  cache.set("a", 2);
  cache.set("a", 3);
  assert.equal(cache.weight, 1);
});

Deno.test("LruCache overwrites do not evict other entries", () => {
  const cache = new LruCache<string, number>({ maxWeight: 3 });
  cache.set("a", 1);
  cache.set("b", 1);
  for (let i = 0; i < 5; i++) cache.set("counter", i);
  assert.deepEqual(cache.keys(), ["a", "b", "counter"]);
  assert.equal(cache.stats.evictions, 0);
});

Deno.test("LruCache overwrite with a heavier value evicts only as needed", () => {
  const cache = new LruCache<string, string>({ maxWeight: 10, weigh: utf8Weight });
  cache.set("x", "123");
  cache.set("y", "123");
  cache.set("y", "1234567");
  assert.deepEqual(cache.keys(), ["x", "y"]);
  assert.equal(cache.weight, 10);
});

Deno.test("LfuCache overwrite keeps the weight of one entry", () => {
  const cache = new LfuCache<string, number>({ maxWeight: 3 });
  cache.set("a", 1);
  cache.set("a", 2);
  cache.set("a", 3);
  assert.equal(cache.weight, 1);
});

Deno.test("LfuCache overwrites do not evict other entries", () => {
  const cache = new LfuCache<string, number>({ maxWeight: 3 });
  cache.set("a", 1);
  cache.set("b", 1);
  for (let i = 0; i < 5; i++) cache.set("counter", i);
  assert.deepEqual(cache.keys().sort(), ["a", "b", "counter"]);
  assert.equal(cache.stats.evictions, 0);
});

Deno.test("LfuCache overwrite with a lighter value frees weight", () => {
  const cache = new LfuCache<string, string>({ maxWeight: 10, weigh: utf8Weight });
  cache.set("x", "123456");
  cache.set("x", "12");
  cache.set("y", "12345678");
  assert.deepEqual(cache.keys().sort(), ["x", "y"]);
  assert.equal(cache.weight, 10);
});

Deno.test("overwrite counts as a use in both policies", () => {
  const lfu = new LfuCache<string, number>({ maxWeight: 5 });
  lfu.set("a", 1);
  lfu.set("a", 2);
  assert.equal(lfu.uses("a"), 2);
  const lru = createCache<string, number>("lru", { maxWeight: 5 });
  lru.set("a", 1);
  lru.set("b", 1);
  lru.set("a", 2);
  assert.deepEqual(lru.keys(), ["b", "a"]);
});

Deno.test("overwrite reports the replaced value", () => {
  const log: string[] = [];
  const cache = new LfuCache<string, number>({ maxWeight: 5, onRemove: (k, v, cause) => log.push(`${k}=${v}:${cause}`) });
  cache.set("a", 1);
  cache.set("a", 2);
  assert.deepEqual(log, ["a=1:replaced"]);
});
