/**
 * Choosing a policy by name, for configuration files.
 */
import type { Cache, CacheOptions } from "../core/types.ts";
import { LfuCache } from "./lfu.ts";
import { LruCache } from "./lru.ts";

/** Supported eviction policies. */
export type Policy = "lru" | "lfu";

/** Creates a cache with the named policy. */
export function createCache<K, V>(policy: Policy, options: CacheOptions<K, V>): Cache<K, V> {
  if (!(options.maxWeight > 0)) throw new RangeError(`maxWeight must be positive, got ${options.maxWeight}`);
  switch (policy) {
    case "lru":
      return new LruCache(options);
    case "lfu":
      return new LfuCache(options);
    default:
      throw new Error(`unknown cache policy "${policy}"`);
  }
}
