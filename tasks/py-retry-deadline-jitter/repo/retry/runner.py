"""Calling a function under a :class:`RetryPolicy`."""
import functools
import time

from .errors import RetryError


def call_with_retry(fn, policy, *, retry_on=(Exception,), sleep=time.sleep):
    """Call ``fn()`` until it succeeds, retrying on exceptions of the ``retry_on`` types.

    Between attempts it sleeps ``policy.delay_for(attempt)`` seconds. Exceptions of other types
    propagate at once. When every attempt failed, raises :class:`RetryError`.
    """
    attempt = 0
    while True:
        attempt += 1
        try:
            return fn()
        except retry_on as exc:
            if attempt >= policy.max_attempts:
                raise RetryError(attempt, exc) from exc
            sleep(policy.delay_for(attempt))


def retrying(policy, **options):
    """Decorator form of :func:`call_with_retry`; ``options`` are passed through."""

    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return call_with_retry(lambda: func(*args, **kwargs), policy, **options)

        return wrapper

    return decorator
