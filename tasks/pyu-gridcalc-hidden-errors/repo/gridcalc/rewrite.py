"""Rewrite the references in formula text when formulas move or rows are inserted or deleted.

Rewriting works on tokens, so everything except the references keeps its spelling.
"""

from . import lexer
from .refs import AddressError, CellRef, parse_ref

REF_ERROR = "#REF!"


def _rewrite(formula, change):
    """Replace each reference token by ``change(ref)``, a string; ranges pass both corners."""
    tokens = lexer.tokenize(formula)
    parts = []
    last = 0
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.kind != lexer.REF:
            i += 1
            continue
        is_range = (
            i + 2 < len(tokens)
            and tokens[i + 1].kind == lexer.COLON
            and tokens[i + 2].kind == lexer.REF
        )
        if is_range:
            end_token = tokens[i + 2]
            replacement = change(parse_ref(token.text), parse_ref(end_token.text))
            stop = end_token.pos + len(end_token.text)
            i += 3
        else:
            replacement = change(parse_ref(token.text), None)
            stop = token.pos + len(token.text)
            i += 1
        parts.append(formula[last:token.pos])
        parts.append(replacement)
        last = stop
    parts.append(formula[last:])
    return "".join(parts)


def shift_formula(formula, dcol, drow):
    """The formula as it reads after being copied ``dcol`` columns right and ``drow`` rows down.

    Relative parts of references move with it; a reference pushed off the sheet becomes ``#REF!``.
    """

    def change(start, end):
        try:
            moved = start.shifted(dcol, drow)
            if end is None:
                return str(moved)
            return f"{moved}:{end.shifted(dcol, drow)}"
        except AddressError:
            return REF_ERROR

    return _rewrite(formula, change)


def _moved_row(ref, row):
    return CellRef(ref.col, row, ref.col_abs, ref.row_abs)


def insert_rows_in_formula(formula, at, count):
    """The formula after ``count`` rows are inserted before zero-based row ``at``.

    References at or below ``at`` move down, absolute or not; a range that spans the
    insertion point grows.
    """

    def move(ref):
        return _moved_row(ref, ref.row + count) if ref.row >= at else ref

    def change(start, end):
        try:
            if end is None:
                return str(move(start))
            return f"{move(start)}:{move(end)}"
        except AddressError:
            return REF_ERROR

    return _rewrite(formula, change)


def delete_rows_in_formula(formula, at, count):
    """The formula after rows ``at`` to ``at + count - 1`` (zero-based) are deleted.

    References below the deleted rows move up. A reference to a deleted cell becomes
    ``#REF!``; a range loses its deleted rows and becomes ``#REF!`` only when all of them go.
    """
    gone_end = at + count

    def change(start, end):
        if end is None:
            if at <= start.row < gone_end:
                return REF_ERROR
            return str(_moved_row(start, start.row - count) if start.row >= gone_end else start)
        top, bottom = start.row, end.row
        if at <= top and bottom < gone_end:
            return REF_ERROR
        if top >= gone_end:
            top -= count
        elif top >= at:
            top = at
        if bottom >= gone_end:
            bottom -= count
        elif bottom >= at:
            bottom = at - 1
        return f"{_moved_row(start, top)}:{_moved_row(end, bottom)}"

    return _rewrite(formula, change)
