"""Known units. Factors are exact Fractions of the dimension's base unit (ml, g, or 1)."""
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Unit:
    name: str  # canonical short name, used when printing
    dimension: str  # "volume", "mass" or "count"
    system: str  # "metric", "us" or "none"
    factor: Fraction  # size in the dimension's base unit (ml for volume, g for mass)
    aliases: tuple = ()
    plural: str = ""  # printed form for quantities other than 1; defaults to name


_ML_PER_TSP = Fraction("4.92892159375")
_G_PER_OZ = Fraction("28.349523125")

UNITS = (
    Unit("ml", "volume", "metric", Fraction(1), ("milliliter", "milliliters", "millilitre", "millilitres")),
    Unit("l", "volume", "metric", Fraction(1000), ("liter", "liters", "litre", "litres")),
    Unit("tsp", "volume", "us", _ML_PER_TSP, ("teaspoon", "teaspoons", "t")),
    Unit("tbsp", "volume", "us", 3 * _ML_PER_TSP, ("tablespoon", "tablespoons", "T", "tbs")),
    Unit("fl oz", "volume", "us", 6 * _ML_PER_TSP, ("fluid ounce", "fluid ounces")),
    Unit("cup", "volume", "us", 48 * _ML_PER_TSP, ("cups", "c"), plural="cups"),
    Unit("g", "mass", "metric", Fraction(1), ("gram", "grams", "gr")),
    Unit("kg", "mass", "metric", Fraction(1000), ("kilogram", "kilograms", "kilo", "kilos")),
    Unit("oz", "mass", "us", _G_PER_OZ, ("ounce", "ounces")),
    Unit("lb", "mass", "us", 16 * _G_PER_OZ, ("pound", "pounds", "lbs")),
    Unit("pinch", "count", "none", Fraction(1), ("pinches",), plural="pinches"),
    Unit("clove", "count", "none", Fraction(1), ("cloves",), plural="cloves"),
)


class UnknownUnit(KeyError):
    """No unit has this name or alias."""


def _index():
    index = {}
    for unit in UNITS:
        for name in (unit.name, *unit.aliases):
            index[name] = unit
    return index


_BY_NAME = _index()


def lookup(name):
    """The Unit called `name` (canonical name or alias). 'T' is a tablespoon, 't' a teaspoon;
    other names are matched case-insensitively."""
    if name in _BY_NAME:
        return _BY_NAME[name]
    lowered = name.lower().rstrip(".")
    if lowered in _BY_NAME:
        return _BY_NAME[lowered]
    raise UnknownUnit(name)


def is_unit(name):
    try:
        lookup(name)
    except UnknownUnit:
        return False
    return True
