"""The filter registry.

A filter is a function ``f(value, *args)``; it receives the value before the ``|`` and the
filter's arguments, if any. Register new filters with :func:`register`.
"""
FILTERS = {}


def register(name):
    """Decorator adding a filter under ``name``."""
    def wrap(function):
        FILTERS[name] = function
        return function
    return wrap


def get_filter(name):
    """The filter called ``name``, or ``None``."""
    return FILTERS.get(name)


from . import collections, numbers, text  # noqa: E402,F401  (registers the built-in filters)
