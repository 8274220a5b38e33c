"""Retrying flaky operations with exponential backoff."""
from .errors import RetryError
from .policy import RetryPolicy
from .runner import call_with_retry, retrying

__all__ = ["RetryError", "RetryPolicy", "call_with_retry", "retrying"]
