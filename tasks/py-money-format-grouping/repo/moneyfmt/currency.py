"""Formatting numbers and money amounts."""
from decimal import ROUND_HALF_UP, Decimal

from .grouping import group_digits
from .locales import get_currency, get_locale


def format_number(amount, locale="en_US", places=2):
    """``amount`` rounded half-up to ``places`` decimals, with the locale's separators.

    Negative numbers get a leading ``-``.
    """
    loc = get_locale(locale)
    value = Decimal(str(amount)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    sign = "-" if value < 0 else ""
    whole, _, fraction = f"{abs(value):f}".partition(".")
    text = group_digits(whole, loc.group_sep, loc.grouping)
    if places:
        text += loc.decimal_sep + fraction
    return sign + text


def format_money(amount, currency="USD", locale="en_US", accounting=False):
    """``amount`` as money: ``$1,234.50``, ``1.234,50 €``, ``¥1,235``...

    Negative amounts get a leading ``-`` (``-$5.00``), or parentheses when ``accounting`` is
    true (``($5.00)``).
    """
    loc = get_locale(locale)
    symbol, places = get_currency(currency)
    number = format_number(abs(Decimal(str(amount))), locale, places)
    space = " " if loc.symbol_space else ""
    text = f"{symbol}{space}{number}" if loc.symbol_first else f"{number}{space}{symbol}"
    if Decimal(str(amount)) < 0 and number.strip("0.,\u202f") != "":
        text = f"({text})" if accounting else f"-{text}"
    return text
