"""Recipe data."""
from dataclasses import dataclass, field
from fractions import Fraction


@dataclass(frozen=True)
class Ingredient:
    name: str
    quantity: Fraction | None = None  # None for "salt, to taste"
    unit: str | None = None  # canonical unit name (see units.UNITS), None for plain counts
    note: str = ""  # text after a comma: "chopped", "to taste"


@dataclass(frozen=True)
class Recipe:
    title: str
    servings: int
    ingredients: tuple = field(default_factory=tuple)
