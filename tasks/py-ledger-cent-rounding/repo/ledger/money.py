"""Amounts are stored as integer cents; these helpers convert at the edges."""


def to_cents(amount):
    """Convert an amount given in currency units to integer cents.

    Accepts ints, floats, Decimals and strings such as ``"19.99"`` or ``"-0.50"``.
    """
    if isinstance(amount, int):
        return amount * 100
    if isinstance(amount, str):
        amount = amount.strip().replace(",", "")
        if not amount:
            raise ValueError("empty amount")
    return int(float(amount) * 100)


def format_cents(cents):
    """Format integer cents as ``"1234.50"`` / ``"-0.05"``."""
    sign = "-" if cents < 0 else ""
    units, rest = divmod(abs(cents), 100)
    return f"{sign}{units}.{rest:02d}"
