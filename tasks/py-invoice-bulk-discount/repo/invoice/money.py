"""Decimal helpers; every amount in this package is a ``Decimal`` rounded to cents."""
from decimal import Decimal, ROUND_HALF_UP

CENT = Decimal("0.01")


def to_decimal(value):
    """Convert an int, str or Decimal to Decimal (floats go through ``str`` to avoid binary noise)."""
    if isinstance(value, Decimal):
        return value
    if isinstance(value, float):
        value = str(value)
    return Decimal(value)


def round_money(value):
    """Round to whole cents, halves away from zero (the convention our accountants use)."""
    return to_decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)
