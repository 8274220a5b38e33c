"""Unit conversion for lengths, masses and temperatures."""
from .convert import IncompatibleUnitsError, convert
from .format import format_quantity
from .registry import UnknownUnitError, lookup

__all__ = ["IncompatibleUnitsError", "UnknownUnitError", "convert", "format_quantity", "lookup"]
