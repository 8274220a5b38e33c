from fractions import Fraction

import recipes
from recipes import Ingredient, parse_recipe, render_recipe, scale

STEW = """Stew (serves 2)
500 g beef
4 tbsp oil
1 1/2 tsp paprika
750 ml stock
4 fl oz wine
2 cloves garlic
12 oz potatoes
salt, to taste
"""


def test_tablespoons_to_cup():
    assert recipes.tidy(Ingredient("butter", 16, "tbsp")) == Ingredient("butter", 1, "cup")


def test_teaspoons_to_tablespoons():
    assert recipes.tidy(Ingredient("paprika", 6, "tsp")) == Ingredient("paprika", 2, "tbsp")


def test_stays_when_below_one_of_the_next_unit():
    assert recipes.tidy(Ingredient("butter", 8, "tbsp")) == Ingredient("butter", 8, "tbsp")


def test_goes_down_when_below_one():
    assert recipes.tidy(Ingredient("vanilla", Fraction(1, 2), "tbsp")) == Ingredient("vanilla", Fraction(3, 2), "tsp")


def test_smallest_unit_kept_below_one():
    assert recipes.tidy(Ingredient("salt", Fraction(1, 4), "tsp")) == Ingredient("salt", Fraction(1, 4), "tsp")


def test_grams_to_kilograms():
    assert recipes.tidy(Ingredient("flour", 2500, "g")) == Ingredient("flour", Fraction(5, 2), "kg")


def test_ounces_to_pounds():
    assert recipes.tidy(Ingredient("potatoes", 36, "oz")) == Ingredient("potatoes", Fraction(9, 4), "lb")


def test_metric_volume():
    assert recipes.tidy(Ingredient("stock", 1500, "ml")) == Ingredient("stock", Fraction(3, 2), "l")


def test_note_kept():
    assert recipes.tidy(Ingredient("butter", 32, "tbsp", "soft")) == Ingredient("butter", 2, "cup", "soft")


def test_units_outside_ladders_unchanged():
    for item in (Ingredient("wine", 40, "fl oz"), Ingredient("garlic", 20, "clove"), Ingredient("eggs", 12), Ingredient("salt")):
        assert recipes.tidy(item) == item


def test_scale_with_tidy_units():
    assert render_recipe(scale(parse_recipe(STEW), 8, tidy_units=True)).splitlines() == [
        "Stew (serves 8)",
        "2 kg beef",
        "1 cup oil",
        "2 tbsp paprika",
        "3 l stock",
        "16 fl oz wine",
        "8 cloves garlic",
        "3 lb potatoes",
        "salt, to taste",
    ]


def test_scale_default_keeps_units():
    assert scale(parse_recipe(STEW), 8).ingredients[0] == Ingredient("beef", 2000, "g")
