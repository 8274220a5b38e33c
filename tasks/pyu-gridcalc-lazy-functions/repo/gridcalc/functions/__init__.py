"""The function registry formulas call into.

A function receives its evaluated arguments: scalars, or :class:`RangeValue` for range
arguments. Functions signal errors by returning a :class:`~gridcalc.errors.CellError` or raising
:class:`~gridcalc.errors.ErrorSignal`.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class RangeValue:
    """The values of a range argument, as a list of rows."""

    rows: list

    def values(self):
        """Yield every value, row by row."""
        for row in self.rows:
            yield from row


@dataclass(frozen=True)
class FunctionSpec:
    name: str
    fn: object
    min_args: int
    max_args: object


FUNCTIONS = {}


def register(name, fn, *, min_args=0, max_args=None):
    """Make ``fn`` callable from formulas as ``name`` (any case); replaces an earlier one."""
    spec = FunctionSpec(name.upper(), fn, min_args, max_args)
    FUNCTIONS[spec.name] = spec
    return spec


def unregister(name):
    """Remove a function; unknown names are ignored."""
    FUNCTIONS.pop(name.upper(), None)


def function(name, *, min_args=0, max_args=None):
    """Decorator form of :func:`register`."""

    def decorate(fn):
        register(name, fn, min_args=min_args, max_args=max_args)
        return fn

    return decorate


def lookup(name):
    """Return the :class:`FunctionSpec` registered as ``name``, or None."""
    return FUNCTIONS.get(name.upper())


from . import logic, lookups, maths, text  # noqa: E402,F401  (registers the built-ins)
