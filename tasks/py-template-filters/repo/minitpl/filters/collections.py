"""Filters on lists and other iterables."""
from . import register


@register("length")
def length(value):
    return 0 if value is None else len(value)


@register("first")
def first(value):
    return value[0] if value else None


@register("last")
def last(value):
    return value[-1] if value else None


@register("sort")
def sort(value):
    return sorted(value or [])


@register("join")
def join(value, separator=", "):
    """The items as strings joined with ``separator``."""
    return separator.join(str(item) for item in value or [])
