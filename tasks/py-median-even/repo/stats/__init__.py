"""Small descriptive statistics helpers."""
from .summary import mean, median, summarize

__all__ = ["mean", "median", "summarize"]
