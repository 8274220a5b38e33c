"""Filters on strings."""
import html

from . import register


def _str(value):
    return "" if value is None else str(value)


@register("upper")
def upper(value):
    return _str(value).upper()


@register("lower")
def lower(value):
    return _str(value).lower()


@register("title")
def title(value):
    return _str(value).title()


@register("trim")
def trim(value):
    return _str(value).strip()


@register("escape")
def escape(value):
    """HTML-escape ``value`` (quotes included)."""
    return html.escape(_str(value))


@register("default")
def default(value, fallback=""):
    """``fallback`` when ``value`` is missing (``None``) or empty."""
    return fallback if value is None or value == "" else value


@register("truncate")
def truncate(value, length=30, end="..."):
    """At most ``length`` characters; a shortened text ends with ``end`` (counted in ``length``)."""
    text = _str(value)
    if len(text) <= length:
        return text
    return text[:max(length - len(end), 0)] + end
