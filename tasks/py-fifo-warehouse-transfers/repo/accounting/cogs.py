"""Cost of goods sold: replay movements through a FIFO ledger."""
from collections import defaultdict

from stock import StockLedger

from .money import to_cents


def replay(movements):
    """Run movements in order; returns (ledger, [(movement, cost of goods)] for each sale)."""
    ledger = StockLedger()
    sales = []
    for movement in movements:
        if movement.kind == "receipt":
            ledger.receive(movement.sku, movement.quantity, movement.amount, movement.day)
        else:
            sales.append((movement, ledger.issue(movement.sku, movement.quantity)))
    return ledger, sales


def cogs_by_sku(movements):
    """{sku: cost of goods sold, rounded to cents}."""
    totals = defaultdict(float)
    for movement, cost in replay(movements)[1]:
        totals[movement.sku] += cost
    return {sku: to_cents(total) for sku, total in sorted(totals.items())}


def cogs_by_month(movements):
    """{'YYYY-MM': cost of goods sold, rounded to cents}."""
    totals = defaultdict(float)
    for movement, cost in replay(movements)[1]:
        totals[movement.day.strftime("%Y-%m")] += cost
    return {month: to_cents(total) for month, total in sorted(totals.items())}
