"""Stock keeping for a small warehouse."""
from .errors import InsufficientStockError, UnknownItemError
from .items import Item
from .store import Inventory

__all__ = ["InsufficientStockError", "Inventory", "Item", "UnknownItemError"]
