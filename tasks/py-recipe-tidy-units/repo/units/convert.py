"""Exact conversion between units of the same dimension."""
from fractions import Fraction

from .registry import lookup


class IncompatibleUnits(ValueError):
    """The units measure different things (e.g. cups and grams)."""


def convert(quantity, from_unit, to_unit):
    """Convert `quantity` (number or Fraction) from one unit to another; returns a Fraction.

    Unit arguments are names or Unit objects.
    """
    source = lookup(from_unit) if isinstance(from_unit, str) else from_unit
    target = lookup(to_unit) if isinstance(to_unit, str) else to_unit
    if source.dimension != target.dimension or source.dimension == "count" and source != target:
        raise IncompatibleUnits(f"cannot convert {source.name} to {target.name}")
    return Fraction(quantity) * source.factor / target.factor
