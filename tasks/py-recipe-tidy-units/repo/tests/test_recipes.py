from fractions import Fraction

import pytest

from recipes import Ingredient, parse_ingredient, parse_recipe, render_recipe, scale

PANCAKES = """Pancakes (serves 4)
1 1/2 cups flour
2 eggs
3 tbsp butter, melted
1 pinch of salt
milk, to taste
"""


def test_parse_ingredient_with_unit_and_note():
    assert parse_ingredient("1 ½ cups flour, sifted") == Ingredient("flour", Fraction(3, 2), "cup", "sifted")


def test_parse_two_word_unit():
    assert parse_ingredient("4 fl oz cream") == Ingredient("cream", 4, "fl oz")


def test_word_that_is_not_a_unit():
    assert parse_ingredient("2 eggs") == Ingredient("eggs", 2)


def test_parse_recipe_title():
    recipe = parse_recipe(PANCAKES)
    assert (recipe.title, recipe.servings, len(recipe.ingredients)) == ("Pancakes", 4, 5)


def test_scale_keeps_units():
    doubled = scale(parse_recipe(PANCAKES), 8)
    assert render_recipe(doubled).splitlines() == [
        "Pancakes (serves 8)",
        "3 cups flour",
        "4 eggs",
        "6 tbsp butter, melted",
        "2 pinches salt",
        "milk, to taste",
    ]


def test_scale_down():
    assert scale(parse_recipe(PANCAKES), 1).ingredients[0].quantity == Fraction(3, 8)


def test_scale_rejects_zero():
    with pytest.raises(ValueError):
        scale(parse_recipe(PANCAKES), 0)
