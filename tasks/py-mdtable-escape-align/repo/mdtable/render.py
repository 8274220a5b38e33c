"""Assemble a Markdown table."""
from .align import check_alignment, pad, separator
from .cells import escape_cell


def render_table(headers, rows, align=None):
    """Render ``rows`` (sequences of values) under ``headers`` as a Markdown table.

    ``align`` is an optional list with one alignment per column (None, "left", "right",
    "center"). Short rows are padded with empty cells; long rows are an error. Columns are padded
    to a common width so the source is readable.
    """
    columns = len(headers)
    align = list(align) if align is not None else [None] * columns
    if len(align) != columns:
        raise ValueError("align needs one entry per column")
    for a in align:
        check_alignment(a)
    header_cells = [escape_cell(h) for h in headers]
    body = []
    for row in rows:
        if len(row) > columns:
            raise ValueError(f"row has {len(row)} cells, table has {columns} columns")
        cells = [escape_cell(v) for v in row]
        body.append(cells + [""] * (columns - len(cells)))
    widths = [max([3, len(header_cells[i])] + [len(r[i]) for r in body]) for i in range(columns)]

    def line(cells):
        return "| " + " | ".join(pad(c, w, a) for c, w, a in zip(cells, widths, align)) + " |"

    out = [line(header_cells), "| " + " | ".join(separator(w, a) for w, a in zip(widths, align)) + " |"]
    out.extend(line(cells) for cells in body)
    return "\n".join(out)
