"""Order states."""
from enum import Enum


class State(Enum):
    NEW = "new"
    PAID = "paid"
    PICKING = "picking"
    PACKED = "packed"
    SHIPPED = "shipped"
    DELIVERED = "delivered"
    RETURNED = "returned"
    CANCELLED = "cancelled"


TERMINAL = frozenset({State.RETURNED, State.CANCELLED})
