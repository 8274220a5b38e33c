"""Events that move an order through its life cycle."""
from enum import Enum


class Event(Enum):
    PAY = "pay"
    START_PICKING = "start_picking"
    PACK = "pack"
    SHIP = "ship"
    DELIVER = "deliver"
    RETURN = "return"
    CANCEL = "cancel"


def parse_event(name):
    """The :class:`Event` for ``name`` (``"start-picking"``, ``"Start_Picking"``, ...)."""
    return Event(name.strip().lower().replace("-", "_"))
