"""Append-only event storage."""
from .errors import ConcurrencyError, StreamNotFound
from .memory import EventStore, StoredEvent

__all__ = ["ConcurrencyError", "EventStore", "StoredEvent", "StreamNotFound"]
