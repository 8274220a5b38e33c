"""Counters describing how well a cache is doing."""
from collections import namedtuple

CacheInfo = namedtuple("CacheInfo", "hits misses evictions maxsize currsize")


class CacheStats:
    """Mutable hit / miss / eviction counters."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.hits = 0
        self.misses = 0
        self.evictions = 0

    def record_hit(self):
        self.hits += 1

    def record_miss(self):
        self.misses += 1

    def record_eviction(self):
        self.evictions += 1

    @property
    def hit_rate(self):
        """Fraction of lookups that were hits (0.0 before any lookup)."""
        total = self.hits + self.misses
        return self.hits / total if total else 0.0

    def info(self, maxsize, currsize):
        return CacheInfo(self.hits, self.misses, self.evictions, maxsize, currsize)
