"""Inventory errors."""


class UnknownItemError(KeyError):
    """No item with that SKU."""


class InsufficientStockError(ValueError):
    """Shipping more units than are in stock."""

    def __init__(self, sku, requested, available):
        super().__init__(f"{sku}: requested {requested}, only {available} in stock")
        self.sku, self.requested, self.available = sku, requested, available
