"""Print recipes back as text."""
from units import format_quantity, lookup


def render_ingredient(item):
    """Ingredient('flour', 3/2, 'cup') -> '1 1/2 cups flour'."""
    parts = []
    if item.quantity is not None:
        parts.append(format_quantity(item.quantity))
    if item.unit is not None:
        unit = lookup(item.unit)
        parts.append(unit.name if item.quantity == 1 or not unit.plural else unit.plural)
    parts.append(item.name)
    text = " ".join(parts)
    return f"{text}, {item.note}" if item.note else text


def render_recipe(recipe):
    lines = [f"{recipe.title} (serves {recipe.servings})"]
    lines += [render_ingredient(item) for item in recipe.ingredients]
    return "\n".join(lines)
