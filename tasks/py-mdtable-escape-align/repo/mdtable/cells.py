"""Turning Python values into Markdown table cell text."""


def escape_cell(value):
    """Text of one cell.

    ``None`` becomes an empty cell, floats keep up to 6 significant digits, newlines become
    ``<br>`` and pipe characters are escaped as ``\\|`` so they do not split the cell.
    """
    if value is None:
        return ""
    if isinstance(value, float):
        text = f"{value:.6g}"
    else:
        text = str(value)
    text = text.replace("\r\n", "\n").replace("\n", "<br>")
    return text.strip()
