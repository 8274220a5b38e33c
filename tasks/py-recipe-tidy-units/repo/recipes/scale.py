"""Scale a recipe to a different number of servings."""
from dataclasses import replace
from fractions import Fraction

from .model import Recipe


def scale(recipe, servings):
    """A copy of `recipe` for `servings` people. Quantities are scaled exactly; units are kept."""
    if servings < 1:
        raise ValueError("servings must be at least 1")
    factor = Fraction(servings, recipe.servings)
    ingredients = tuple(
        item if item.quantity is None else replace(item, quantity=item.quantity * factor)
        for item in recipe.ingredients
    )
    return Recipe(recipe.title, servings, ingredients)
