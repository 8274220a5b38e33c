"""Tax categories and per-line tax."""
from decimal import Decimal

from .money import round_money

TAX_RATES = {
    "standard": Decimal("0.20"),
    "reduced": Decimal("0.05"),
    "zero": Decimal("0"),
}


def rate_for(category):
    """Tax rate of a category; raises ValueError for an unknown category."""
    try:
        return TAX_RATES[category]
    except KeyError:
        raise ValueError(f"unknown tax category: {category!r}") from None


def tax_for(line):
    """Tax due on one line: its net amount times the category rate, rounded to cents."""
    return round_money(line.net() * rate_for(line.tax_category))
