"""The table of known units.

Every unit maps to its dimension's base unit (metre, kilogram, kelvin) with an affine rule:
``base = (value + offset) * factor``.
"""
from collections import namedtuple

Unit = namedtuple("Unit", "name symbol dimension factor offset")


class UnknownUnitError(KeyError):
    """No unit with that name, symbol or alias."""


UNITS = {
    # length (base: metre)
    "metre": Unit("metre", "m", "length", 1.0, 0.0),
    "kilometre": Unit("kilometre", "km", "length", 1000.0, 0.0),
    "centimetre": Unit("centimetre", "cm", "length", 0.01, 0.0),
    "inch": Unit("inch", "in", "length", 0.0254, 0.0),
    "foot": Unit("foot", "ft", "length", 0.3048, 0.0),
    "mile": Unit("mile", "mi", "length", 1609.344, 0.0),
    # mass (base: kilogram)
    "kilogram": Unit("kilogram", "kg", "mass", 1.0, 0.0),
    "gram": Unit("gram", "g", "mass", 0.001, 0.0),
    "pound": Unit("pound", "lb", "mass", 0.45359237, 0.0),
    "ounce": Unit("ounce", "oz", "mass", 0.028349523125, 0.0),
    # temperature (base: kelvin)
    "kelvin": Unit("kelvin", "K", "temperature", 1.0, 0.0),
    "celsius": Unit("celsius", "°C", "temperature", 1.0, 273.15),
    "fahrenheit": Unit("fahrenheit", "°F", "temperature", 5.0 / 9.0, 459.76),
}

ALIASES = {"meter": "metre", "kilometer": "kilometre", "centimeter": "centimetre", "feet": "foot",
           "C": "celsius", "F": "fahrenheit", "lbs": "pound"}


def lookup(name):
    """Find a unit by name, alias or symbol (symbols are case-sensitive: ``K`` vs ``k``)."""
    key = ALIASES.get(name, name)
    if key in UNITS:
        return UNITS[key]
    for unit in UNITS.values():
        if unit.symbol == name:
            return unit
    lowered = key.lower()
    if lowered in UNITS:
        return UNITS[lowered]
    raise UnknownUnitError(name)
