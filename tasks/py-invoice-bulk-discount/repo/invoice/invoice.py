"""An invoice: a numbered list of line items for one customer."""
from .lines import LineItem
from .tax import tax_for


class Invoice:
    """Collects line items and computes subtotal, tax and total."""

    def __init__(self, number, customer):
        self.number = number
        self.customer = customer
        self.lines = []

    def add_line(self, description, quantity, unit_price, tax_category="standard"):
        """Append a line and return it."""
        line = LineItem(description, quantity, unit_price, tax_category)
        self.lines.append(line)
        return line

    def subtotal(self):
        """Sum of the net amounts of all lines."""
        return sum((line.net() for line in self.lines), start=0)

    def discount_total(self):
        """Sum of all line discounts."""
        return sum((line.discount() for line in self.lines), start=0)

    def tax_total(self):
        """Sum of the tax of all lines (tax is rounded per line)."""
        return sum((tax_for(line) for line in self.lines), start=0)

    def total(self):
        """Amount due: subtotal plus tax."""
        return self.subtotal() + self.tax_total()

    def summary(self):
        """A dict suitable for rendering: number, customer, line count and the amounts as strings."""
        return {
            "number": self.number,
            "customer": self.customer,
            "lines": len(self.lines),
            "discount": str(self.discount_total()),
            "subtotal": str(self.subtotal()),
            "tax": str(self.tax_total()),
            "total": str(self.total()),
        }
