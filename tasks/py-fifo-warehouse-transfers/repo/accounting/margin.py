"""Revenue and gross margin per SKU."""
from collections import defaultdict

from .cogs import replay
from .money import to_cents


def revenue_by_sku(movements):
    """{sku: sales revenue, rounded to cents}."""
    totals = defaultdict(float)
    for movement in movements:
        if movement.kind == "sale":
            totals[movement.sku] += movement.quantity * movement.amount
    return {sku: to_cents(total) for sku, total in sorted(totals.items())}


def gross_margin(movements):
    """{sku: revenue - cost of goods sold, rounded to cents} for SKUs with sales."""
    revenue = defaultdict(float)
    cost = defaultdict(float)
    for movement, cogs in replay(movements)[1]:
        revenue[movement.sku] += movement.quantity * movement.amount
        cost[movement.sku] += cogs
    return {sku: to_cents(revenue[sku] - cost[sku]) for sku in sorted(revenue)}
