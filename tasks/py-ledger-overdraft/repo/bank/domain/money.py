"""Amounts as integer cents."""
import re

_AMOUNT = re.compile(r"^(\d+)(?:\.(\d{1,2}))?$")


def parse_amount(text):
    """'12.5' -> 1250. Only non-negative amounts with at most two decimals."""
    match = _AMOUNT.match(str(text).strip())
    if not match:
        raise ValueError(f"invalid amount {text!r}")
    whole, frac = match.groups()
    return int(whole) * 100 + int((frac or "0").ljust(2, "0"))


def format_cents(cents):
    """-1250 -> '-12.50'."""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"
