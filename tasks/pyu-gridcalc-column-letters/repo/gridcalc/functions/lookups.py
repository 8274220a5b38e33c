"""Lookup and conditional-count functions."""

import re

from ..errors import NA, REF, VALUE, CellError
from ..values import compare, parse_input, to_number, to_text, values_equal
from . import RangeValue, function
from ._args import scalar

_CRITERION = re.compile(r"^(<>|<=|>=|=|<|>)?(.*)$", re.DOTALL)


@function("MATCH", min_args=2, max_args=2)
def match(value, within):
    """1-based position of the first cell of a one-row or one-column range equal to ``value``."""
    needle = scalar(value)
    if not isinstance(within, RangeValue):
        return VALUE
    if len(within.rows) > 1 and len(within.rows[0]) > 1:
        return NA
    for position, candidate in enumerate(within.values(), start=1):
        if isinstance(candidate, CellError) or candidate is None:
            continue
        if values_equal(candidate, needle):
            return float(position)
    return NA


@function("VLOOKUP", min_args=3, max_args=3)
def vlookup(value, table, column):
    """The value in column ``column`` (1-based) of the first row whose first cell equals ``value``."""
    needle = scalar(value)
    if not isinstance(table, RangeValue):
        return VALUE
    index = int(to_number(scalar(column)))
    if index < 1:
        return VALUE
    if index > len(table.rows[0]):
        return REF
    for row in table.rows:
        key = row[0]
        if key is None or isinstance(key, CellError):
            continue
        if values_equal(key, needle):
            return row[index - 1]
    return NA


def _criterion(text):
    """Turn ``">=10"``, ``"<>apple"`` or ``"apple"`` into a test on cell values."""
    op, operand = _CRITERION.match(text).groups()
    target = parse_input(operand) if operand else None
    op = op or "="

    def test(value):
        if isinstance(value, CellError):
            return False
        if op in ("=", "<>") and target is None:
            return (value is None or value == "") == (op == "=")
        if value is None:
            return op == "<>"
        if op not in ("=", "<>") and type(value) is not type(target):
            return False
        order = compare(value, target)
        return {
            "=": order == 0, "<>": order != 0, "<": order < 0,
            ">": order > 0, "<=": order <= 0, ">=": order >= 0,
        }[op]

    return test


@function("COUNTIF", min_args=2, max_args=2)
def countif(cells, criterion):
    if not isinstance(cells, RangeValue):
        return VALUE
    test = _criterion(to_text(scalar(criterion)))
    return float(sum(1 for value in cells.values() if test(value)))


@function("SUMIF", min_args=2, max_args=3)
def sumif(cells, criterion, sum_cells=None):
    if not isinstance(cells, RangeValue):
        return VALUE
    if sum_cells is None:
        sum_cells = cells
    if not isinstance(sum_cells, RangeValue):
        return VALUE
    test = _criterion(to_text(scalar(criterion)))
    total = 0.0
    for row, sum_row in zip(cells.rows, sum_cells.rows):
        for value, addend in zip(row, sum_row):
            if test(value) and isinstance(addend, float):
                total += addend
    return total
