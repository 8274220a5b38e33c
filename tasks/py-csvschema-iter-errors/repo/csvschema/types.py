"""Cell parsers: each takes the cell text and returns the value or raises ValueError."""
from datetime import date

_TRUE = {"true", "yes", "1"}
_FALSE = {"false", "no", "0"}


def parse_int(text):
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"expected an integer, got {text!r}") from None


def parse_float(text):
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"expected a number, got {text!r}") from None


def parse_date(text):
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"expected a date (YYYY-MM-DD), got {text!r}") from None


def parse_bool(text):
    lowered = text.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ValueError(f"expected true/false, got {text!r}")


PARSERS = {"str": str, "int": parse_int, "float": parse_float, "date": parse_date, "bool": parse_bool}
