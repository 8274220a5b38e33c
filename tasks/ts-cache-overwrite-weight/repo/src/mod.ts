/**
 * cachekit: weight-bounded LRU and LFU caches.
 */
export type { Cache, CacheOptions, RemovalCause, RemovalListener } from "./core/types.ts";
export { Stats } from "./core/stats.ts";
export type { StatsSnapshot } from "./core/stats.ts";
export { checkWeight, unitWeight, utf8Weight } from "./core/weigh.ts";
export { LruCache } from "./policies/lru.ts";
export { LfuCache } from "./policies/lfu.ts";
export { createCache } from "./policies/factory.ts";
export type { Policy } from "./policies/factory.ts";
export { memoize } from "./memo.ts";
