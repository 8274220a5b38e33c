"""A classic token bucket."""
from .clock import MonotonicClock


class TokenBucket:
    """Holds up to ``capacity`` tokens, refilled continuously at ``rate`` tokens per second.

    A new bucket starts full. Taking tokens never blocks: :meth:`try_acquire` answers
    immediately and :meth:`wait_time` says how long a caller would have to wait.
    """

    def __init__(self, capacity, rate, clock=None):
        if capacity <= 0 or rate <= 0:
            raise ValueError("capacity and rate must be positive")
        self.capacity = float(capacity)
        self.rate = float(rate)
        self._clock = clock or MonotonicClock()
        self._tokens = self.capacity
        self._last = self._clock.now()

    def _refill(self):
        """Add the tokens earned since the last refill, up to capacity."""
        now = self._clock.now()
        elapsed = now - self._last
        if elapsed > 0:
            self._tokens = min(self.capacity, self._tokens + elapsed * self.rate)

    def available(self):
        """Tokens available right now (may be fractional)."""
        self._refill()
        return self._tokens

    def try_acquire(self, tokens=1):
        """Take ``tokens`` if they are available; return whether it succeeded."""
        if tokens > self.capacity:
            raise ValueError("cannot acquire more tokens than the bucket holds")
        self._refill()
        if self._tokens >= tokens:
            self._tokens -= tokens
            self._last = self._clock.now()
            return True
        return False

    def wait_time(self, tokens=1):
        """Seconds until ``tokens`` could be acquired (0 when they are available now)."""
        missing = tokens - self.available()
        return max(0.0, missing / self.rate)
