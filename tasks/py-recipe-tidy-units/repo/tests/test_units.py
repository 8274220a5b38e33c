from fractions import Fraction

import pytest

from units import IncompatibleUnits, UnknownUnit, convert, format_quantity, lookup


def test_lookup_aliases():
    assert lookup("Tablespoons").name == "tbsp"
    assert lookup("T").name == "tbsp"
    assert lookup("t").name == "tsp"


def test_unknown_unit():
    with pytest.raises(UnknownUnit):
        lookup("smidgen")


def test_exact_us_conversions():
    assert convert(1, "cup", "tbsp") == 16
    assert convert(3, "tsp", "tbsp") == 1
    assert convert(1, "lb", "oz") == 16


def test_metric():
    assert convert(Fraction(3, 2), "l", "ml") == 1500


def test_incompatible():
    with pytest.raises(IncompatibleUnits):
        convert(1, "cup", "g")
    with pytest.raises(IncompatibleUnits):
        convert(1, "pinch", "clove")


def test_format_quantity():
    assert [format_quantity(q) for q in (Fraction(3, 2), Fraction(1, 3), 2, Fraction(7, 5))] == [
        "1 1/2", "1/3", "2", "1.4"
    ]
