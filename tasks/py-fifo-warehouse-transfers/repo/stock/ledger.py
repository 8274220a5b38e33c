"""First-in, first-out stock ledger: issues consume the oldest lots first."""
from collections import deque

from .lots import Lot


class InsufficientStock(Exception):
    """An issue asks for more units than are on hand."""


class StockLedger:
    def __init__(self):
        self._lots = {}  # sku -> deque of Lot, oldest first

    def receive(self, sku, quantity, unit_cost, received):
        """Add a lot. `unit_cost` is the cost of one unit."""
        if quantity <= 0:
            raise ValueError(f"{sku}: received quantity must be positive, got {quantity}")
        unit_cost = float(unit_cost)
        if unit_cost < 0:
            raise ValueError(f"{sku}: unit cost must not be negative")
        self._lots.setdefault(sku, deque()).append(Lot(sku, received, quantity, unit_cost))

    def issue(self, sku, quantity):
        """Take `quantity` units out, oldest lots first. Returns their total cost (unrounded).

        Nothing is consumed when there is not enough stock.
        """
        if quantity <= 0:
            raise ValueError(f"{sku}: issued quantity must be positive, got {quantity}")
        if quantity > self.on_hand(sku):
            raise InsufficientStock(f"{sku}: {quantity} requested, {self.on_hand(sku)} on hand")
        lots = self._lots[sku]
        cost = 0.0
        remaining = quantity
        while remaining:
            lot = lots[0]
            taken = min(lot.quantity, remaining)
            cost += taken * lot.unit_cost
            lot.quantity -= taken
            remaining -= taken
            if not lot.quantity:
                lots.popleft()
        return cost

    def on_hand(self, sku):
        return sum(lot.quantity for lot in self._lots.get(sku, ()))

    def lots(self, sku):
        """Open lots of `sku`, oldest first (copies are not made; do not mutate)."""
        return list(self._lots.get(sku, ()))

    def skus(self):
        return sorted(sku for sku, lots in self._lots.items() if lots)
