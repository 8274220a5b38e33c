/**
 * Least-frequently-used eviction in O(1) per operation (Shah, Mitra & Matani 2010): entries are
 * grouped in buckets by use count, and within a bucket the least recently used goes first.
 */
import { Stats } from "../core/stats.ts";
import type { Cache, CacheOptions, RemovalListener } from "../core/types.ts";
import { checkWeight, unitWeight } from "../core/weigh.ts";

interface Entry<V> {
  value: V;
  weight: number;
  uses: number;
}

/** An LFU cache bounded by total weight. */
export class LfuCache<K, V> implements Cache<K, V> {
  readonly stats = new Stats();
  #entries = new Map<K, Entry<V>>();
  /** Use count to the keys with that count, oldest use first. */
  #buckets = new Map<number, Set<K>>();
  #minUses = 0;
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
    this.#touch(key, entry);
    return entry.value;
  }

  /** Replacing a value counts as a use of the key. */
  set(key: K, value: V): void {
    const weight = checkWeight(this.#weigh(key, value));
    const entry = this.#entries.get(key);
    if (entry) {
      const old = entry.value;
      entry.value = value;
      entry.weight = weight;
      this.#weight += weight;
      this.#onRemove?.(key, old, "replaced");
      this.#touch(key, entry);
    } else {
      this.#entries.set(key, { value, weight, uses: 1 });
      this.#bucket(1).add(key);
      this.#minUses = 1;
      this.#weight += weight;
    }
    this.#evict(key);
  }

  has(key: K): boolean {
    return this.#entries.has(key);
  }

  delete(key: K): boolean {
    const entry = this.#entries.get(key);
    if (!entry) return false;
    this.#unlink(key, entry);
    this.#onRemove?.(key, entry.value, "deleted");
    return true;
  }

  keys(): K[] {
    const counts = [...this.#buckets.keys()].sort((a, b) => a - b);
    return counts.flatMap((count) => [...this.#buckets.get(count)!]);
  }

  /** Use count of a key (0 when absent); for diagnostics. */
  uses(key: K): number {
    return this.#entries.get(key)?.uses ?? 0;
  }

  #bucket(uses: number): Set<K> {
    let bucket = this.#buckets.get(uses);
    if (!bucket) {
      bucket = new Set();
      this.#buckets.set(uses, bucket);
    }
    return bucket;
  }

  #touch(key: K, entry: Entry<V>): void {
    const bucket = this.#buckets.get(entry.uses)!;
    bucket.delete(key);
    if (bucket.size === 0) {
      this.#buckets.delete(entry.uses);
      if (this.#minUses === entry.uses) this.#minUses = entry.uses + 1;
    }
    entry.uses++;
    this.#bucket(entry.uses).add(key);
  }

  #unlink(key: K, entry: Entry<V>): void {
    const bucket = this.#buckets.get(entry.uses)!;
    bucket.delete(key);
    if (bucket.size === 0) this.#buckets.delete(entry.uses);
    this.#entries.delete(key);
    this.#weight -= entry.weight;
    if (this.#entries.size === 0) this.#minUses = 0;
    else if (!this.#buckets.has(this.#minUses)) this.#minUses = Math.min(...this.#buckets.keys());
  }

  /** Evicts until within budget, never the entry just written unless it is alone. */
  #evict(protect: K): void {
    while (this.#weight > this.#maxWeight && this.#entries.size > 1) {
      const bucket = this.#buckets.get(this.#minUses)!;
      let victim: K | undefined;
      for (const key of bucket) {
        if (key !== protect) {
          victim = key;
          break;
        }
      }
      if (victim === undefined) {
        const counts = [...this.#buckets.keys()].filter((c) => c !== this.#minUses).sort((a, b) => a - b);
        victim = [...this.#buckets.get(counts[0])!][0];
      }
      const entry = this.#entries.get(victim)!;
      this.#unlink(victim, entry);
      this.stats.evictions++;
      this.#onRemove?.(victim, entry.value, "evicted");
    }
  }
}
