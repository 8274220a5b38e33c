"""Print quantities the way recipes do: '1 1/2', '3/4', '2'."""
from fractions import Fraction

# Denominators a cook can measure; anything else is printed as a decimal.
KITCHEN_DENOMINATORS = (1, 2, 3, 4, 8)


def format_quantity(quantity):
    """Fraction(3, 2) -> '1 1/2'; Fraction(1, 3) -> '1/3'; Fraction(7, 5) -> '1.4'."""
    quantity = Fraction(quantity)
    if quantity.denominator not in KITCHEN_DENOMINATORS:
        text = f"{float(quantity):.2f}".rstrip("0").rstrip(".")
        return text
    whole, rest = divmod(quantity.numerator, quantity.denominator)
    if not rest:
        return str(whole)
    fraction = f"{rest}/{quantity.denominator}"
    return f"{whole} {fraction}" if whole else fraction
