"""Human-readable quantities."""
from .convert import convert
from .registry import lookup


def format_quantity(value, unit, precision=2, to=None):
    """``"21.50 °C"``; with ``to`` the value is converted first. Trailing ``-0.00`` is avoided."""
    target = lookup(to or unit)
    if to:
        value = convert(value, unit, to)
    text = f"{value:.{precision}f}"
    if text.startswith("-") and float(text) == 0:
        text = text[1:]
    return f"{text} {target.symbol}"
