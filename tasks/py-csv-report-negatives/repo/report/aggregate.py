"""Grouping and totals over parsed rows."""
from decimal import Decimal


def group_totals(rows, key, value="amount"):
    """Sum ``value`` per distinct ``key``; groups keep first-seen order. Missing values count as 0."""
    totals = {}
    for row in rows:
        amount = row.get(value) or Decimal("0")
        totals[row[key]] = totals.get(row[key], Decimal("0")) + amount
    return totals


def summarize(rows, value="amount"):
    """Count, total, and the smallest and largest value of a column (None values skipped)."""
    values = [row[value] for row in rows if row.get(value) is not None]
    if not values:
        return {"count": 0, "total": Decimal("0"), "min": None, "max": None}
    return {"count": len(values), "total": sum(values, Decimal("0")), "min": min(values), "max": max(values)}
