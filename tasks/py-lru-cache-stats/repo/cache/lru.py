"""Least-recently-used cache on a dict plus a circular doubly linked list."""
from .stats import CacheStats


class _Node:
    __slots__ = ("key", "value", "prev", "next")

    def __init__(self, key=None, value=None):
        self.key, self.value = key, value
        self.prev = self.next = self


class LRUCache:
    """Maps keys to values, keeping at most ``maxsize`` entries.

    When full, inserting a new key evicts the least recently used entry. Both :meth:`get` hits and
    :meth:`put` count as a use. Lookups update :attr:`stats` (hits and misses) and every eviction
    is counted in ``stats.evictions``.
    """

    def __init__(self, maxsize=128):
        if maxsize < 1:
            raise ValueError("maxsize must be at least 1")
        self.maxsize = maxsize
        self.stats = CacheStats()
        self._map = {}
        self._root = _Node()  # sentinel: root.next is the most recent, root.prev the oldest

    def __len__(self):
        return len(self._map)

    def __contains__(self, key):
        return key in self._map

    def _unlink(self, node):
        node.prev.next = node.next
        node.next.prev = node.prev

    def _push_front(self, node):
        node.prev, node.next = self._root, self._root.next
        self._root.next.prev = node
        self._root.next = node

    def get(self, key, default=None):
        """The cached value (marking it recently used), or ``default`` on a miss."""
        node = self._map.get(key)
        if node is None:
            self.stats.record_miss()
            return default
        self.stats.record_hit()
        self._unlink(node)
        self._push_front(node)
        return node.value

    def put(self, key, value):
        """Insert or update ``key``, evicting the least recently used entry if needed."""
        node = self._map.get(key)
        if node is not None:
            node.value = value
            self._unlink(node)
            self._push_front(node)
            return
        if len(self._map) >= self.maxsize:
            oldest = self._root.prev
            self._unlink(oldest)
            del self._map[oldest.key]
        node = _Node(key, value)
        self._map[key] = node
        self._push_front(node)

    def keys(self):
        """Keys from most to least recently used."""
        out, node = [], self._root.next
        while node is not self._root:
            out.append(node.key)
            node = node.next
        return out

    def clear(self):
        self._map.clear()
        self._root.prev = self._root.next = self._root
        self.stats.reset()

    def info(self):
        return self.stats.info(self.maxsize, len(self._map))
