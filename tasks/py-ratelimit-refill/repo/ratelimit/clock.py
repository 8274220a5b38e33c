"""Clocks: the real monotonic one and a manual one for tests and simulations."""
import time


class MonotonicClock:
    """Seconds from ``time.monotonic``."""

    def now(self):
        return time.monotonic()


class ManualClock:
    """A clock that only moves when told to."""

    def __init__(self, start=0.0):
        self._now = float(start)

    def now(self):
        return self._now

    def advance(self, seconds):
        """Move time forward; moving backwards is an error."""
        if seconds < 0:
            raise ValueError("cannot move a clock backwards")
        self._now += seconds
