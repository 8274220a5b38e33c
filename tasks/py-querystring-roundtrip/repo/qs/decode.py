"""Parsing query strings."""
from .percent import unquote


def unquote_plus(text):
    """Inverse of :func:`qs.encode.quote_plus`: ``+`` is a space, then percent-decoding."""
    return unquote(text.replace("+", " "))


def parse_qsl(query, keep_blank_values=False):
    """Split a query string into a list of ``(key, value)`` pairs, in order.

    Pairs are separated by ``&`` or ``;``; a leading ``?`` is ignored. A pair without ``=`` has an
    empty value. Pairs with an empty value are dropped unless ``keep_blank_values`` is true.
    """
    query = query.lstrip("?")
    pairs = []
    for chunk in query.replace(";", "&").split("&"):
        if not chunk:
            continue
        key, _, value = chunk.partition("=")
        if not value and not keep_blank_values:
            continue
        pairs.append((unquote_plus(key), unquote_plus(value)))
    return pairs


def parse_qs(query, keep_blank_values=False):
    """Like :func:`parse_qsl` but grouped: ``{key: [value, ...]}`` in first-seen key order."""
    result = {}
    for key, value in parse_qsl(query, keep_blank_values):
        result.setdefault(key, []).append(value)
    return result
