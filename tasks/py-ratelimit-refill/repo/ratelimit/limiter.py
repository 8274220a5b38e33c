"""One token bucket per key (user id, IP address, API token...)."""
from .bucket import TokenBucket
from .clock import MonotonicClock


class KeyedLimiter:
    """Lazily creates a :class:`TokenBucket` per key, all sharing one clock."""

    def __init__(self, capacity, rate, clock=None):
        self.capacity = capacity
        self.rate = rate
        self._clock = clock or MonotonicClock()
        self._buckets = {}

    def _bucket(self, key):
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(self.capacity, self.rate, self._clock)
        return bucket

    def allow(self, key, cost=1):
        """Whether a request of ``cost`` tokens from ``key`` may proceed now."""
        return self._bucket(key).try_acquire(cost)

    def retry_after(self, key, cost=1):
        """Seconds ``key`` should wait before retrying a request of ``cost`` tokens."""
        return self._bucket(key).wait_time(cost)

    def forget_idle(self):
        """Drop buckets that are full again; they behave exactly like fresh ones."""
        full = [k for k, b in self._buckets.items() if b.available() >= b.capacity]
        for key in full:
            del self._buckets[key]
        return len(full)
