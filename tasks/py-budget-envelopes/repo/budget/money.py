"""Money as Decimal rounded to cents."""
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def money(value):
    """``value`` (str, int or Decimal; never float) as a Decimal with two places."""
    if isinstance(value, float):
        raise TypeError("use str or Decimal for money, not float")
    return Decimal(value).quantize(CENT, rounding=ROUND_HALF_UP)


ZERO = money(0)
