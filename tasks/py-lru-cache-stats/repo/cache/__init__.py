"""An LRU cache with statistics and a memoizing decorator built on it."""
from .lru import LRUCache
from .memoize import memoize
from .stats import CacheInfo, CacheStats

__all__ = ["CacheInfo", "CacheStats", "LRUCache", "memoize"]
