"""Text functions."""

from ..errors import VALUE
from ..formatting import PatternError, format_number
from ..values import to_number, to_text
from . import function
from ._args import flatten, scalar


def _count(value):
    number = to_number(scalar(value))
    if number < 0:
        return None
    return int(number)


@function("CONCAT")
def concat(*args):
    return "".join(to_text(value) for value, _ in flatten(args))


@function("LEN", min_args=1, max_args=1)
def len_(value):
    return float(len(to_text(scalar(value))))


@function("UPPER", min_args=1, max_args=1)
def upper(value):
    return to_text(scalar(value)).upper()


@function("LOWER", min_args=1, max_args=1)
def lower(value):
    return to_text(scalar(value)).lower()


@function("TRIM", min_args=1, max_args=1)
def trim(value):
    return " ".join(to_text(scalar(value)).split())


@function("LEFT", min_args=1, max_args=2)
def left(value, count=1.0):
    n = _count(count)
    if n is None:
        return VALUE
    return to_text(scalar(value))[:n]


@function("RIGHT", min_args=1, max_args=2)
def right(value, count=1.0):
    n = _count(count)
    if n is None:
        return VALUE
    text = to_text(scalar(value))
    return text[len(text) - n:] if n else ""


@function("MID", min_args=3, max_args=3)
def mid(value, start, count):
    first = _count(start)
    n = _count(count)
    if first is None or first < 1 or n is None:
        return VALUE
    return to_text(scalar(value))[first - 1:first - 1 + n]


@function("TEXT", min_args=2, max_args=2)
def text_(value, pattern):
    try:
        return format_number(to_number(scalar(value)), to_text(scalar(pattern)))
    except PatternError:
        return VALUE
