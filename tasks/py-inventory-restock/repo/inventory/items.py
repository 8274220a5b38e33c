"""Stock items."""
from dataclasses import dataclass


@dataclass
class Item:
    """One SKU held in stock.

    ``reorder_level`` is the quantity at or below which the item should be reordered;
    0 means the item is never reordered automatically.
    """

    sku: str
    name: str
    quantity: int = 0
    reorder_level: int = 0

    def __post_init__(self):
        if not self.sku or not self.sku.strip():
            raise ValueError("sku must not be empty")
        if self.quantity < 0 or self.reorder_level < 0:
            raise ValueError("quantity and reorder_level must not be negative")
