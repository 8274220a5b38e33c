"""Column alignment: padding cells and the delimiter row."""

ALIGNMENTS = (None, "left", "right", "center")


def check_alignment(align):
    if align not in ALIGNMENTS:
        raise ValueError(f"alignment must be one of {ALIGNMENTS}, got {align!r}")


def separator(width, align=None):
    """Delimiter-row cell of ``width`` characters (at least 3).

    ``---`` (default), ``:---`` (left), ``---:`` (right) or ``:---:`` (center).
    """
    check_alignment(align)
    width = max(width, 3)
    if align == "center":
        return ":" + "-" * (width - 2) + ":"
    if align in ("left", "right"):
        return ":" + "-" * (width - 1)
    return "-" * width


def pad(text, width, align=None):
    """Pad ``text`` to ``width``; right-aligned cells are padded on the left, centred on both sides."""
    check_alignment(align)
    if align == "right":
        return text.rjust(width)
    if align == "center":
        return text.center(width)
    return text.ljust(width)
