"""Logical functions (``IF`` and ``IFERROR`` live in the evaluator: they must not evaluate every argument)."""

from ..errors import CellError
from ..values import to_bool
from . import function
from ._args import flatten, scalar


def _truths(args):
    result = []
    for value, from_range in flatten(args):
        if from_range and (value is None or isinstance(value, str)):
            continue
        result.append(to_bool(value))
    return result


@function("AND", min_args=1)
def and_(*args):
    return all(_truths(args))


@function("OR", min_args=1)
def or_(*args):
    return any(_truths(args))


@function("NOT", min_args=1, max_args=1)
def not_(value):
    return not to_bool(scalar(value))


@function("ISERROR", min_args=1, max_args=1)
def iserror(value):
    return isinstance(scalar(value), CellError)


@function("ISBLANK", min_args=1, max_args=1)
def isblank(value):
    return scalar(value) is None
