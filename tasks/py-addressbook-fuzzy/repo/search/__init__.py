"""Fuzzy search over an address book."""
from .index import Match, SearchIndex
from .normalize import fold

__all__ = ["Match", "SearchIndex", "fold"]
