"""Event types and their serialisation."""
from .codec import decode, encode
from .types import (
    AccountClosed,
    AccountOpened,
    Deposited,
    Event,
    TransferReceived,
    TransferSent,
    Withdrawn,
)

__all__ = [
    "AccountClosed", "AccountOpened", "Deposited", "Event", "TransferReceived", "TransferSent",
    "Withdrawn", "decode", "encode",
]
