"""Converting values between units of the same dimension."""
from .registry import lookup


class IncompatibleUnitsError(ValueError):
    """The two units measure different dimensions (e.g. length and mass)."""


def to_base(value, unit):
    """Value expressed in the base unit of ``unit``'s dimension."""
    return (value + unit.offset) * unit.factor


def from_base(value, unit):
    """Inverse of :func:`to_base`."""
    return value / unit.factor - unit.offset


def convert(value, from_unit, to_unit):
    """Convert ``value`` from ``from_unit`` to ``to_unit`` (names, aliases or symbols)."""
    source, target = lookup(from_unit), lookup(to_unit)
    if source.dimension != target.dimension:
        raise IncompatibleUnitsError(f"cannot convert {source.dimension} to {target.dimension}")
    if source is target:
        return value
    return from_base(to_base(value, source), target)
