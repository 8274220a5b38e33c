"""Customer notifications sent when orders change state."""
from .outbox import Outbox

__all__ = ["Outbox"]
