"""Plain-text rendering of report tables."""
from decimal import Decimal

from .aggregate import group_totals, summarize
from .reader import read_rows


def _fmt(value):
    if isinstance(value, Decimal):
        return f"{value:,.2f}"
    return "" if value is None else str(value)


def render_table(headers, rows):
    """Align columns; numbers (Decimals) are right-aligned, text left-aligned."""
    cells = [[_fmt(v) for v in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        widths = [max(w, len(c)) for w, c in zip(widths, row)]
    numeric = [any(isinstance(row[i], Decimal) for row in rows) for i in range(len(headers))]
    lines = ["  ".join(h.rjust(w) if n else h.ljust(w) for h, w, n in zip(headers, widths, numeric))]
    lines.append("  ".join("-" * w for w in widths))
    for row in cells:
        lines.append("  ".join(c.rjust(w) if n else c.ljust(w) for c, w, n in zip(row, widths, numeric)))
    return "\n".join(line.rstrip() for line in lines)


def region_report(csv_text):
    """Totals per region followed by a grand total line."""
    rows = read_rows(csv_text)
    totals = group_totals(rows, "region")
    table = render_table(["Region", "Total"], sorted(totals.items()))
    overall = summarize(rows)
    return f"{table}\n\nGrand total: {_fmt(overall['total'])} ({overall['count']} rows)"
