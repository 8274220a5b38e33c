"""Formatting conventions per locale and per currency."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Locale:
    """How a locale writes numbers and places the currency symbol.

    ``grouping`` is ``(first, rest)``: the size of the right-most digit group and of every group
    to its left, e.g. ``(3, 3)`` for 1,234,567 and ``(3, 2)`` for the Indian 12,34,567.
    """

    decimal_sep: str
    group_sep: str
    grouping: tuple = (3, 3)
    symbol_first: bool = True
    symbol_space: bool = False


LOCALES = {
    "en_US": Locale(".", ","),
    "en_GB": Locale(".", ","),
    "de_DE": Locale(",", ".", symbol_first=False, symbol_space=True),
    "fr_FR": Locale(",", "\u202f", symbol_first=False, symbol_space=True),
    "en_IN": Locale(".", ",", grouping=(3, 2)),
}

#: Currency code -> (symbol, minor unit digits).
CURRENCIES = {
    "USD": ("$", 2),
    "EUR": ("€", 2),
    "GBP": ("£", 2),
    "INR": ("₹", 2),
    "JPY": ("¥", 0),
}


def get_locale(name):
    try:
        return LOCALES[name]
    except KeyError:
        raise ValueError(f"unsupported locale {name!r}") from None


def get_currency(code):
    try:
        return CURRENCIES[code.upper()]
    except KeyError:
        raise ValueError(f"unsupported currency {code!r}") from None
