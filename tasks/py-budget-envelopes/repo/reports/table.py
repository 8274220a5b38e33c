"""A plain-text table of one month."""

COLUMNS = ("envelope", "opening", "allocated", "spent", "closing", "carried")


def month_table(result):
    """Lines of a fixed-width table, one row per envelope and a header."""
    rows = [COLUMNS]
    for name in result.allocated:
        rows.append((name, *(str(getattr(result, col)[name]) for col in COLUMNS[1:])))
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells))
    lines.append(f"unassigned: {result.unassigned}")
    return lines
