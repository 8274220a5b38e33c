"""Logical functions. ``IF`` and ``IFERROR`` are lazy: they evaluate only the arguments they need."""

from ..errors import CellError, ErrorSignal
from ..values import to_bool
from . import function
from ._args import flatten, scalar


@function("IF", min_args=2, max_args=3, lazy=True)
def if_(condition, then, otherwise=None):
    if to_bool(scalar(condition())):
        return then()
    return otherwise() if otherwise is not None else False


@function("IFERROR", min_args=2, max_args=2, lazy=True)
def iferror(value, fallback):
    try:
        result = value()
    except ErrorSignal:
        return fallback()
    return fallback() if isinstance(result, CellError) else result


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
