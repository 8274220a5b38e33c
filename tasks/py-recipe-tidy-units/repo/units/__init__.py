"""Kitchen units: a registry of known units, exact conversion and friendly formatting."""
from .convert import IncompatibleUnits, convert
from .format import format_quantity
from .registry import UNITS, Unit, UnknownUnit, lookup

__all__ = ["IncompatibleUnits", "UNITS", "Unit", "UnknownUnit", "convert", "format_quantity", "lookup"]
