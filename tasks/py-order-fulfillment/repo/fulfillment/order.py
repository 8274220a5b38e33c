"""The order entity."""
from .states import State


class OrderLine:
    """``quantity`` units of ``sku``; ``picked`` counts the units taken from the shelf."""

    def __init__(self, sku, quantity, picked=0):
        self.sku = sku
        self.quantity = quantity
        self.picked = picked

    @property
    def complete(self):
        return self.picked >= self.quantity


class Order:
    """An order and its audit history.

    ``history`` holds ``(at, from_state, event, to_state)`` tuples, oldest first, for this
    order only.
    """

    def __init__(self, order_id, lines, state=State.NEW, history=[], paid_cents=0, total_cents=0):
        self.order_id = order_id
        self.lines = list(lines)
        self.state = state
        self.history = history
        self.paid_cents = paid_cents
        self.total_cents = total_cents
        self.tracking_number = None

    def __repr__(self):
        return f"Order({self.order_id!r}, state={self.state.value})"
