"""The inventory: items by SKU and stock movements."""
from .errors import InsufficientStockError, UnknownItemError
from .items import Item


class Inventory:
    """Items keyed by SKU, with a log of stock movements."""

    def __init__(self):
        self._items = {}
        self.movements = []  # (sku, delta) in the order they happened

    def add_item(self, sku, name, quantity=0, reorder_level=0):
        if sku in self._items:
            raise ValueError(f"duplicate sku {sku!r}")
        item = self._items[sku] = Item(sku, name, quantity, reorder_level)
        return item

    def get(self, sku):
        try:
            return self._items[sku]
        except KeyError:
            raise UnknownItemError(sku) from None

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        """Items in SKU order."""
        return iter(sorted(self._items.values(), key=lambda item: item.sku))

    def receive(self, sku, quantity):
        """Add received units to stock."""
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        self.get(sku).quantity += quantity
        self.movements.append((sku, quantity))

    def ship(self, sku, quantity):
        """Remove shipped units; raises InsufficientStockError when there are not enough."""
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        item = self.get(sku)
        if quantity > item.quantity:
            raise InsufficientStockError(sku, quantity, item.quantity)
        item.quantity -= quantity
        self.movements.append((sku, -quantity))

    def total_units(self):
        return sum(item.quantity for item in self._items.values())
