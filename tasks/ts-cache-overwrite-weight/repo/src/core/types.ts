/**
 * The contract every cache policy implements.
 */

/** Why an entry left the cache. */
export type RemovalCause = "evicted" | "deleted" | "replaced";

/** Called when an entry leaves the cache. */
export type RemovalListener<K, V> = (key: K, value: V, cause: RemovalCause) => void;

/** Options shared by all policies. */
export interface CacheOptions<K, V> {
  /** Total weight the cache may hold; entries are evicted to stay at or under it. */
  maxWeight: number;
  /** Weight of one entry; default 1 (so `maxWeight` is an entry count). */
  weigh?: (key: K, value: V) => number;
  onRemove?: RemovalListener<K, V>;
}

/** A bounded key-value cache. */
export interface Cache<K, V> {
  /** The value for `key`, counting a hit or a miss. */
  get(key: K): V | undefined;
  /** Inserts or replaces `key`, evicting entries when over `maxWeight`. */
  set(key: K, value: V): void;
  /** True when present; does not count as a use. */
  has(key: K): boolean;
  /** Removes `key`; returns whether it was present. */
  delete(key: K): boolean;
  /** Number of entries. */
  readonly size: number;
  /** Sum of the weights of the entries. */
  readonly weight: number;
  /** Keys from the next eviction victim to the most protected entry. */
  keys(): K[];
}
