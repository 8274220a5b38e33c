"""Token-bucket rate limiting with an injectable clock."""
from .bucket import TokenBucket
from .clock import ManualClock, MonotonicClock
from .limiter import KeyedLimiter

__all__ = ["KeyedLimiter", "ManualClock", "MonotonicClock", "TokenBucket"]
