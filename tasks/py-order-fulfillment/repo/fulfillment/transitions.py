"""The transition table: (state, event) -> (next state, guards)."""
from . import guards
from .events import Event
from .states import State

TRANSITIONS = {
    (State.NEW, Event.PAY): (State.PAID, [guards.fully_paid]),
    (State.NEW, Event.CANCEL): (State.CANCELLED, []),
    (State.PAID, Event.START_PICKING): (State.PICKING, []),
    (State.PAID, Event.CANCEL): (State.CANCELLED, []),
    (State.PICKING, Event.PACK): (State.PACKED, [guards.all_lines_picked]),
    (State.PICKING, Event.CANCEL): (State.CANCELLED, []),
    (State.PACKED, Event.SHIP): (State.SHIPPED, [guards.has_tracking_number]),
    (State.SHIPPED, Event.DELIVER): (State.DELIVERED, []),
    (State.DELIVERED, Event.RETURN): (State.RETURNED, []),
}


def allowed_events(state):
    """Events accepted in ``state``, in declaration order."""
    return [event for (source, event) in TRANSITIONS if source == state]
