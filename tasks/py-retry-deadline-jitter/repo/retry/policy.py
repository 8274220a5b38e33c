"""Backoff policies."""


class RetryPolicy:
    """Exponential backoff: after failed attempt ``n`` (1-based) wait
    ``base_delay * multiplier ** (n - 1)`` seconds, capped at ``max_delay`` when given.

    ``max_attempts`` counts every call, the first one included.
    """

    def __init__(self, max_attempts=3, base_delay=0.1, multiplier=2.0, max_delay=None):
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if base_delay < 0 or multiplier < 1:
            raise ValueError("base_delay must be >= 0 and multiplier >= 1")
        if max_delay is not None and max_delay < 0:
            raise ValueError("max_delay must be >= 0")
        self.max_attempts = max_attempts
        self.base_delay = base_delay
        self.multiplier = multiplier
        self.max_delay = max_delay

    def delay_for(self, attempt):
        """Seconds to wait after failed attempt number ``attempt``."""
        if attempt < 1:
            raise ValueError("attempt numbers start at 1")
        delay = self.base_delay * self.multiplier ** (attempt - 1)
        if self.max_delay is not None:
            delay = min(delay, self.max_delay)
        return delay

    def delays(self):
        """The waits between attempts, in order (``max_attempts - 1`` values)."""
        return [self.delay_for(n) for n in range(1, self.max_attempts)]

    def __repr__(self):
        return (f"RetryPolicy(max_attempts={self.max_attempts}, base_delay={self.base_delay}, "
                f"multiplier={self.multiplier}, max_delay={self.max_delay})")
