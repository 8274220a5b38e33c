"""Parse recipes written as plain text.

    Pancakes (serves 4)
    1 1/2 cups flour
    2 eggs
    3 tbsp butter, melted
    salt, to taste
"""
import re
from fractions import Fraction

from units.registry import is_unit, lookup

from .model import Ingredient, Recipe

_TITLE = re.compile(r"^(?P<title>.+?)\s*\((?:serves|servings:?)\s*(?P<servings>\d+)\)\s*$", re.I)
_QUANTITY = re.compile(r"^(?P<q>\d+\s+\d+/\d+|\d+/\d+|\d+(?:\.\d+)?)\s+(?P<rest>.*)$")
_UNICODE_FRACTIONS = {"½": " 1/2", "⅓": " 1/3", "¼": " 1/4", "¾": " 3/4", "⅛": " 1/8"}


def _parse_quantity(text):
    parts = text.split()
    return sum((Fraction(p) for p in parts), Fraction(0))


def parse_ingredient(line):
    """'1 1/2 cups flour, sifted' -> Ingredient('flour', Fraction(3, 2), 'cup', 'sifted')."""
    for symbol, ascii_form in _UNICODE_FRACTIONS.items():
        line = line.replace(symbol, ascii_form)
    line = line.strip()
    text, _, note = line.partition(",")
    match = _QUANTITY.match(text.strip())
    if not match:
        return Ingredient(text.strip(), note=note.strip())
    quantity = _parse_quantity(match.group("q"))
    rest = match.group("rest")
    unit = None
    # Two-word units first ("fl oz"), then one-word units; "of" after a unit is dropped.
    words = rest.split()
    for size in (2, 1):
        candidate = " ".join(words[:size])
        if len(words) > size and is_unit(candidate):
            unit = lookup(candidate).name
            words = words[size:]
            break
    if unit and words and words[0] == "of":
        words = words[1:]
    return Ingredient(" ".join(words), quantity, unit, note.strip())


def parse_recipe(text):
    """First non-empty line is 'Title (serves N)'; every other non-empty line is an ingredient."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ValueError("empty recipe")
    match = _TITLE.match(lines[0].strip())
    if not match:
        raise ValueError(f"first line must look like 'Title (serves 4)', got {lines[0]!r}")
    ingredients = tuple(parse_ingredient(line) for line in lines[1:])
    return Recipe(match.group("title"), int(match.group("servings")), ingredients)
