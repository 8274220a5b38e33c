"""Recipes: parsing ingredient lines, scaling to a number of servings, and printing."""
from .model import Ingredient, Recipe
from .parse import parse_ingredient, parse_recipe
from .render import render_ingredient, render_recipe
from .scale import scale

__all__ = [
    "Ingredient", "Recipe", "parse_ingredient", "parse_recipe", "render_ingredient",
    "render_recipe", "scale",
]
