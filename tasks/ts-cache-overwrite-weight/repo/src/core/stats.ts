/**
 * Hit/miss/eviction counters, shared by the policies.
 */

/** A snapshot of counters. */
export interface StatsSnapshot {
  hits: number;
  misses: number;
  evictions: number;
  /** hits / (hits + misses), or 0 before the first lookup. */
  hitRate: number;
}

/** Mutable counters owned by one cache. */
export class Stats {
  hits = 0;
  misses = 0;
  evictions = 0;

  /** Records a lookup. */
  lookup(hit: boolean): void {
    if (hit) this.hits++;
    else this.misses++;
  }

  /** A copy of the counters. */
  snapshot(): StatsSnapshot {
    const lookups = this.hits + this.misses;
    return { hits: this.hits, misses: this.misses, evictions: this.evictions, hitRate: lookups === 0 ? 0 : this.hits / lookups };
  }
}
