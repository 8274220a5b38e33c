"""What typed input means, and how values convert between numbers, text and booleans.

A cell value is ``None`` (empty), a ``float``, a ``str``, a ``bool`` or a
:class:`~gridcalc.errors.CellError`.
"""

import re
from decimal import ROUND_HALF_UP, Decimal

from .errors import DIV0, VALUE, CellError, ErrorSignal

_NUMBER = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$")


def parse_number(text):
    """Return the number ``text`` spells (``"1,234.5"``, ``"12%"`` and ``"-3e2"`` included), or None."""
    text = text.strip()
    percent = text.endswith("%")
    if percent:
        text = text[:-1].rstrip()
    if "," in text:
        whole, dot, fraction = text.partition(".")
        groups = whole.lstrip("+-").split(",")
        if not groups[0] or any(len(group) != 3 for group in groups[1:]):
            return None
        text = whole.replace(",", "") + dot + fraction
    if not _NUMBER.match(text):
        return None
    number = float(text)
    return number / 100 if percent else number


def parse_input(raw):
    """Return the constant a user typing ``raw`` means; formulas are handled by the sheet.

    Empty input is ``None``; ``TRUE``/``FALSE`` in any case are booleans; numbers may have
    thousands separators or a trailing ``%``; anything else is text as typed.
    """
    if raw.strip() == "":
        return None
    upper = raw.strip().upper()
    if upper in ("TRUE", "FALSE"):
        return upper == "TRUE"
    number = parse_number(raw)
    if number is not None:
        return number
    return raw


def to_number(value):
    """Convert a value for arithmetic; errors and non-numeric text raise :class:`ErrorSignal`."""
    if isinstance(value, CellError):
        raise ErrorSignal(value)
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, float):
        return value
    if isinstance(value, int):
        return float(value)
    number = parse_number(value)
    if number is None:
        raise ErrorSignal(VALUE)
    return number


def to_text(value):
    """Convert a value for text operations (``&``, text functions)."""
    if isinstance(value, CellError):
        raise ErrorSignal(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        return number_to_text(value)
    return value


def to_bool(value):
    """Convert a value for logic functions: numbers are true unless zero."""
    if isinstance(value, CellError):
        raise ErrorSignal(value)
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return value != 0
    upper = value.strip().upper()
    if upper in ("TRUE", "FALSE"):
        return upper == "TRUE"
    raise ErrorSignal(VALUE)


def number_to_text(number):
    """General number display: integers without a decimal point, others with up to 10 significant digits."""
    if number != number or number in (float("inf"), float("-inf")):
        raise ErrorSignal(DIV0)
    if number == int(number) and abs(number) < 1e15:
        return str(int(number))
    text = f"{number:.10g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        return f"{mantissa}E{int(exponent):+03d}"
    return text


def round_half_away(number, digits=0):
    """Round like a spreadsheet: halves go away from zero, judged on the shortest decimal form."""
    exponent = Decimal(1).scaleb(-digits)
    rounded = Decimal(repr(float(number))).quantize(exponent, rounding=ROUND_HALF_UP)
    return float(rounded)


def _rank(value):
    if isinstance(value, bool):
        return 2
    if isinstance(value, str):
        return 1
    return 0


def compare(left, right):
    """Order two values as spreadsheet comparisons do; return -1, 0 or 1.

    Numbers sort before text, text before booleans; text compares without regard to case.
    An empty cell counts as 0 against a number, ``""`` against text and FALSE against a boolean.
    """
    for value in (left, right):
        if isinstance(value, CellError):
            raise ErrorSignal(value)
    if left is None:
        left = _empty_like(right)
    if right is None:
        right = _empty_like(left)
    left_rank, right_rank = _rank(left), _rank(right)
    if left_rank != right_rank:
        return -1 if left_rank < right_rank else 1
    if left_rank == 1:
        left, right = left.casefold(), right.casefold()
    return (left > right) - (left < right)


def _empty_like(other):
    if isinstance(other, bool):
        return False
    if isinstance(other, str):
        return ""
    return 0.0


def values_equal(left, right):
    """True when :func:`compare` says the two values are equal."""
    return compare(left, right) == 0
