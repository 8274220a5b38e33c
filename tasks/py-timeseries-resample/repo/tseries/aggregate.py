"""Aggregations used to downsample a bucket of values to one value."""
import math


def _mean(values):
    return math.fsum(values) / len(values)


AGGREGATIONS = {
    "mean": _mean,
    "sum": math.fsum,
    "min": min,
    "max": max,
    "first": lambda values: values[0],
    "last": lambda values: values[-1],
    "count": len,
}


def aggregation(name):
    """The aggregation called ``name``, or ``ValueError`` listing the known ones."""
    try:
        return AGGREGATIONS[name]
    except KeyError:
        raise ValueError(f"unknown aggregation {name!r}; expected one of {sorted(AGGREGATIONS)}") from None
