"""Invoice line items and the bulk discount rule."""
from dataclasses import dataclass
from decimal import Decimal

from .money import round_money, to_decimal

#: Lines ordering at least this many units get ``BULK_RATE`` off.
BULK_THRESHOLD = 10
BULK_RATE = Decimal("0.05")


@dataclass
class LineItem:
    """One line of an invoice.

    A line with ``BULK_THRESHOLD`` (10) or more units gets a ``BULK_RATE`` (5%) discount on
    the line's gross amount.
    """

    description: str
    quantity: int
    unit_price: Decimal
    tax_category: str = "standard"

    def __post_init__(self):
        self.unit_price = to_decimal(self.unit_price)
        if self.quantity <= 0:
            raise ValueError(f"quantity must be positive, got {self.quantity}")
        if self.unit_price < 0:
            raise ValueError("unit_price must not be negative")

    def gross(self):
        """Quantity times unit price, before any discount."""
        return round_money(self.unit_price * self.quantity)

    def discount_rate(self):
        """The discount rate applying to this line (0 or ``BULK_RATE``)."""
        if self.quantity > BULK_THRESHOLD:
            return BULK_RATE
        return Decimal("0")

    def discount(self):
        """Discount amount in money, rounded to cents."""
        return round_money(self.gross() * self.discount_rate())

    def net(self):
        """Gross minus discount: the taxable amount of the line."""
        return self.gross() - self.discount()
