"""Argument helpers shared by the built-in functions."""

from ..errors import VALUE, CellError, ErrorSignal
from ..values import to_number
from . import RangeValue


def flatten(args):
    """Yield ``(value, from_range)`` for every scalar argument and every cell of range arguments."""
    for arg in args:
        if isinstance(arg, RangeValue):
            for value in arg.values():
                yield value, True
        else:
            yield arg, False


def numbers(args):
    """The numbers aggregate functions work on.

    Cells of ranges count only when they hold numbers (text, booleans and empty cells are
    skipped); arguments written directly are converted. Errors anywhere raise.
    """
    result = []
    for value, from_range in flatten(args):
        if isinstance(value, CellError):
            raise ErrorSignal(value)
        if from_range:
            if isinstance(value, float):
                result.append(value)
        else:
            result.append(to_number(value))
    return result


def scalar(arg):
    """A single value for an argument that must not be a range."""
    if isinstance(arg, RangeValue):
        if len(arg.rows) == 1 and len(arg.rows[0]) == 1:
            return arg.rows[0][0]
        raise ErrorSignal(VALUE)
    return arg
