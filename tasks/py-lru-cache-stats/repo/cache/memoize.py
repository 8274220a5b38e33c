"""A memoizing decorator backed by :class:`LRUCache`."""
import functools

from .lru import LRUCache

_MISSING = object()


def _make_key(args, kwargs):
    """A hashable key for a call; calls with the same arguments get equal keys."""
    return args


def memoize(maxsize=128):
    """Cache results of a function of hashable arguments.

    The wrapper exposes ``cache_info()`` (a :class:`~cache.stats.CacheInfo`) and
    ``cache_clear()``. Calls that raise are not cached.
    """

    def decorator(func):
        cache = LRUCache(maxsize)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            key = _make_key(args, kwargs)
            result = cache.get(key, _MISSING)
            if result is _MISSING:
                result = func(*args, **kwargs)
                cache.put(key, result)
            return result

        wrapper.cache_info = cache.info
        wrapper.cache_clear = cache.clear
        wrapper.cache = cache
        return wrapper

    return decorator
