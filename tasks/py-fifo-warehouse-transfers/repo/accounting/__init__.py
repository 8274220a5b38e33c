"""Cost of goods sold, inventory valuation and margins under FIFO."""
from .cogs import cogs_by_month, cogs_by_sku, replay
from .margin import gross_margin, revenue_by_sku
from .money import to_cents
from .valuation import inventory_value, value_by_sku

__all__ = [
    "cogs_by_month", "cogs_by_sku", "gross_margin", "inventory_value", "replay", "revenue_by_sku",
    "to_cents", "value_by_sku",
]
