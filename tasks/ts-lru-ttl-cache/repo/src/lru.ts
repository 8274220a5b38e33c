/**
 * A least-recently-used cache with an optional time-to-live per entry.
 *
 * Recency is tracked through the insertion order of a `Map`: the first key
 * is the least recently used one. Both `set` and a successful `get` count
 * as a use; `has` and `peek` do not.
 */
import { Clock, systemClock } from "./clock.ts";
import { CacheStats } from "./stats.ts";

export interface LruOptions {
  /** Maximum number of live entries (>= 1). */
  capacity: number;
  /** Default time-to-live in ms; `Infinity` means entries never expire. */
  ttlMs?: number;
  clock?: Clock;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

export class LruCache<K, V> {
  readonly stats = new CacheStats();
  #map = new Map<K, Entry<V>>();
  #capacity: number;
  #ttlMs: number;
  #clock: Clock;

  constructor(options: LruOptions) {
    if (!Number.isInteger(options.capacity) || options.capacity < 1) {
      throw new RangeError(`capacity must be a positive integer, got ${options.capacity}`);
    }
    this.#capacity = options.capacity;
    this.#ttlMs = options.ttlMs ?? Infinity;
    this.#clock = options.clock ?? systemClock;
  }

  /** Number of stored entries (expired ones are dropped lazily). */
  get size(): number {
    return this.#map.size;
  }

  /** Store a value, evicting the least recently used entry when full. */
  set(key: K, value: V, ttlMs = this.#ttlMs): this {
    this.#map.delete(key);
    this.#map.set(key, { value, expiresAt: this.#clock.now() + ttlMs });
    while (this.#map.size > this.#capacity) {
      const oldest = this.#map.keys().next().value as K;
      this.#map.delete(oldest);
      this.stats.evictions++;
    }
    return this;
  }

  /** Look a value up and mark it as most recently used. */
  get(key: K): V | undefined {
    const entry = this.#live(key);
    if (!entry) {
      this.stats.misses++;
      return undefined;
    }
    this.stats.hits++;
    this.#map.set(key, entry);
    return entry.value;
  }

  /** Look a value up without touching recency or stats. */
  peek(key: K): V | undefined {
    return this.#live(key)?.value;
  }

  /** Whether a live entry exists; does not touch recency. */
  has(key: K): boolean {
    return this.#live(key) !== undefined;
  }

  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  /** Keys from least to most recently used. */
  keys(): K[] {
    return [...this.#map.keys()];
  }

  #live(key: K): Entry<V> | undefined {
    const entry = this.#map.get(key);
    if (!entry) return undefined;
    if (this.#clock.now() >= entry.expiresAt) {
      this.#map.delete(key);
      this.stats.expirations++;
      return undefined;
    }
    return entry;
  }
}
