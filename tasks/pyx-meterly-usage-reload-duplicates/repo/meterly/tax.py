"""Sales tax and VAT.

A region's rate is either exclusive (US sales tax: added on top of the price) or inclusive (EU
VAT: prices already contain it, and the invoice shows the part that is tax). Tax is computed on
the invoice's taxable amount after discounts, once per invoice, and rounded to cents.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from .money import to_decimal


@dataclass(frozen=True)
class TaxRate:
    region: str
    rate: Decimal
    inclusive: bool = False
    name: str = "Tax"

    def __post_init__(self):
        object.__setattr__(self, "rate", to_decimal(self.rate))
        if not Decimal(0) <= self.rate < Decimal(1):
            raise ValueError(f"tax rate must be in [0, 1): {self.rate}")

    def tax_on(self, amount):
        """The tax contained in (inclusive) or due on top of (exclusive) ``amount``, rounded."""
        if self.inclusive:
            return (amount - amount * (Decimal(1) / (Decimal(1) + self.rate))).rounded()
        return (amount * self.rate).rounded()


@dataclass
class TaxTable:
    rates: dict = field(default_factory=dict)

    def add(self, rate):
        self.rates[rate.region] = rate
        return rate

    def rate_for(self, customer):
        """The rate that applies to ``customer``; None when exempt or the region has no tax."""
        if customer.tax_exempt:
            return None
        return self.rates.get(customer.region)
