"""A lot: units of one SKU received together at one unit cost."""
from dataclasses import dataclass
from datetime import date


@dataclass
class Lot:
    sku: str
    received: date
    quantity: int  # units still on hand
    unit_cost: float

    @property
    def value(self):
        """Cost of the units still on hand in this lot (unrounded)."""
        return self.quantity * self.unit_cost
