/** Hit/miss bookkeeping for a cache. */
export class CacheStats {
  hits = 0;
  misses = 0;
  evictions = 0;
  expirations = 0;

  /** Fraction of lookups that were hits, 0 when there were no lookups. */
  hitRate(): number {
    const total = this.hits + this.misses;
    return total === 0 ? 0 : this.hits / total;
  }

  reset(): void {
    this.hits = this.misses = this.evictions = this.expirations = 0;
  }
}
