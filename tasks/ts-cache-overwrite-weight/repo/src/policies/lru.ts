/**
 * Least-recently-used eviction. A `Map` keeps insertion order, so re-inserting a key on every use
 * keeps the least recently used entry first.
 */
import { Stats } from "../core/stats.ts";
import type { Cache, CacheOptions, RemovalListener } from "../core/types.ts";
import { checkWeight, unitWeight } from "../core/weigh.ts";

interface Entry<V> {
  value: V;
  weight: number;
}

/** An LRU cache bounded by total weight. */
export class LruCache<K, V> implements Cache<K, V> {
  readonly stats = new Stats();
  #entries = new Map<K, Entry<V>>();
  #weight = 0;
  readonly #maxWeight: number;
  readonly #weigh: (key: K, value: V) => number;
  readonly #onRemove?: RemovalListener<K, V>;

  constructor(options: CacheOptions<K, V>) {
    this.#maxWeight = options.maxWeight;
    this.#weigh = options.weigh ?? unitWeight;
    this.#onRemove = options.onRemove;
  }

  get size(): number {
    return this.#entries.size;
  }

  get weight(): number {
    return this.#weight;
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    this.stats.lookup(entry !== undefined);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    const weight = checkWeight(this.#weigh(key, value));
    const previous = this.#entries.get(key);
    if (previous) {
      this.#entries.delete(key);
      this.#onRemove?.(key, previous.value, "replaced");
    }
    this.#entries.set(key, { value, weight });
    this.#weight += weight;
    this.#evict();
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  delete(key: K): boolean {
    const entry = this.#entries.get(key);
    if (!entry) return false;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
    this.#onRemove?.(key, entry.value, "deleted");
    return true;
  }

  keys(): K[] {
    return [...this.#entries.keys()];
  }

  #evict(): void {
    while (this.#weight > this.#maxWeight && this.#entries.size > 0) {
      const [key, entry] = this.#entries.entries().next().value as [K, Entry<V>];
      this.#entries.delete(key);
      this.#weight -= entry.weight;
      this.stats.evictions++;
      this.#onRemove?.(key, entry.value, "evicted");
    }
  }
}
