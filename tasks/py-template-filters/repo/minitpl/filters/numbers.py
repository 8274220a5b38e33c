"""Filters on numbers."""
from . import register


@register("round")
def round_(value, ndigits=0):
    """``value`` rounded to ``ndigits`` decimals; an int when ``ndigits`` is 0."""
    if value is None:
        return None
    result = round(float(value), int(ndigits))
    return int(result) if int(ndigits) == 0 else result


@register("abs")
def abs_(value):
    return None if value is None else abs(value)


@register("percent")
def percent(value, ndigits=0):
    """A ratio as a percentage string: ``0.256|percent:1`` is ``25.6%``."""
    if value is None:
        return None
    return f"{float(value) * 100:.{int(ndigits)}f}%"
