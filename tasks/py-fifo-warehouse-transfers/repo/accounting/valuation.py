"""Value of the stock still on hand (at FIFO cost)."""
from .cogs import replay
from .money import to_cents


def value_by_sku(movements):
    """{sku: value of units on hand, rounded to cents} for SKUs with stock."""
    ledger, _ = replay(movements)
    return {sku: to_cents(sum((lot.value for lot in ledger.lots(sku)), 0.0)) for sku in ledger.skus()}


def inventory_value(movements):
    """Total value on hand: the unrounded lot values summed, then rounded once."""
    ledger, _ = replay(movements)
    return to_cents(sum((lot.value for sku in ledger.skus() for lot in ledger.lots(sku)), 0.0))
