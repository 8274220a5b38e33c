"""Building query strings."""
from collections.abc import Mapping

from .percent import quote

#: Characters left as they are in form-encoded keys and values (a space becomes "+").
FORM_SAFE = " *,:/@+"


def quote_plus(text):
    """Form-encode one key or value: percent-encoding, with spaces written as ``+``."""
    return quote(text, safe=FORM_SAFE).replace(" ", "+")


def _pairs(query):
    items = query.items() if isinstance(query, Mapping) else query
    for key, value in items:
        if isinstance(value, (list, tuple)):
            for item in value:
                yield key, item
        else:
            yield key, value


def _text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def urlencode(query):
    """Encode a mapping or a sequence of pairs as ``k=v&k2=v2``.

    List or tuple values produce one pair per item, ``None`` an empty value, booleans
    ``true``/``false``; everything else goes through ``str``.
    """
    return "&".join(f"{quote_plus(_text(k))}={quote_plus(_text(v))}" for k, v in _pairs(query))
