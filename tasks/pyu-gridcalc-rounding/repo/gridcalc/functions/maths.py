"""Arithmetic and aggregate functions."""

import math

from ..errors import DIV0, VALUE, CellError, ErrorSignal
from ..values import to_number
from . import function
from ._args import flatten, numbers, scalar


@function("SUM")
def sum_(*args):
    return math.fsum(numbers(args))


@function("PRODUCT", min_args=1)
def product(*args):
    result = 1.0
    for number in numbers(args):
        result *= number
    return result


@function("AVERAGE", min_args=1)
def average(*args):
    values = numbers(args)
    if not values:
        return DIV0
    return math.fsum(values) / len(values)


@function("MIN")
def min_(*args):
    values = numbers(args)
    return min(values) if values else 0.0


@function("MAX")
def max_(*args):
    values = numbers(args)
    return max(values) if values else 0.0


@function("COUNT")
def count(*args):
    """Count numbers; unlike the aggregates, errors are skipped rather than raised."""
    total = 0
    for value, from_range in flatten(args):
        if isinstance(value, float):
            total += 1
        elif not from_range and not isinstance(value, CellError):
            try:
                to_number(value)
            except ErrorSignal:
                continue
            total += 1
    return float(total)


@function("COUNTA")
def counta(*args):
    return float(sum(1 for value, _ in flatten(args) if value is not None))


@function("ABS", min_args=1, max_args=1)
def abs_(value):
    return abs(to_number(scalar(value)))


@function("ROUND", min_args=1, max_args=2)
def round_(value, digits=0.0):
    places = int(to_number(scalar(digits)))
    return round(to_number(scalar(value)), places)


@function("MOD", min_args=2, max_args=2)
def mod(number, divisor):
    divisor = to_number(scalar(divisor))
    if divisor == 0:
        return DIV0
    return to_number(scalar(number)) % divisor


@function("SQRT", min_args=1, max_args=1)
def sqrt(value):
    number = to_number(scalar(value))
    if number < 0:
        return VALUE
    return math.sqrt(number)
