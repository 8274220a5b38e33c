"""Order fulfillment: the order life cycle as a state machine."""
from .errors import GuardFailed, InvalidTransition
from .events import Event, parse_event
from .machine import fire
from .order import Order, OrderLine
from .states import State

__all__ = ["Event", "GuardFailed", "InvalidTransition", "Order", "OrderLine", "State", "fire", "parse_event"]
