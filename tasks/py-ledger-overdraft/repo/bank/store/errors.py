"""Event store errors."""


class ConcurrencyError(RuntimeError):
    """Someone appended to the stream since it was loaded (expected version mismatch)."""


class StreamNotFound(KeyError):
    """No events were ever appended to the stream."""
