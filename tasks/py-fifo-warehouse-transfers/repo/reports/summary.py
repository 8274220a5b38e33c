"""The month-end summary table the accounting team pastes into their close checklist."""
from accounting import cogs_by_sku, gross_margin, revenue_by_sku, value_by_sku


def _money(amount):
    return f"{amount:,.2f}"


def render_summary(movements):
    """A fixed-width table: SKU, revenue, COGS, margin, stock value; then a totals row."""
    revenue = revenue_by_sku(movements)
    cogs = cogs_by_sku(movements)
    margin = gross_margin(movements)
    stock = value_by_sku(movements)
    skus = sorted(set(revenue) | set(stock))
    zero = 0
    rows = [("SKU", "Revenue", "COGS", "Margin", "Stock")]
    for sku in skus:
        rows.append((sku, *(_money(d.get(sku, zero)) for d in (revenue, cogs, margin, stock))))
    rows.append(("TOTAL", *(_money(sum(d.values(), zero)) for d in (revenue, cogs, margin, stock))))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells))
    return "\n".join(lines)
