"""JSON-friendly dicts for events: {"type": "Deposited", "account_id": ..., ...}.

Stored events outlive the code that wrote them: decoding must keep accepting old payloads, so
new fields get defaults and event types are never renamed.
"""
from dataclasses import asdict, fields

from .types import AccountClosed, AccountOpened, Deposited, TransferReceived, TransferSent, Withdrawn

EVENT_TYPES = {
    cls.__name__: cls
    for cls in (AccountOpened, Deposited, Withdrawn, TransferSent, TransferReceived, AccountClosed)
}


def encode(event):
    """Event -> dict with a "type" key."""
    name = type(event).__name__
    if EVENT_TYPES.get(name) is not type(event):
        raise TypeError(f"not a registered event type: {name}")
    return {"type": name, **asdict(event)}


def decode(data):
    """dict -> Event. Unknown keys are an error (they would be silently lost on re-encoding)."""
    try:
        cls = EVENT_TYPES[data["type"]]
    except KeyError:
        raise ValueError(f"unknown event type {data.get('type')!r}") from None
    known = {f.name for f in fields(cls)}
    payload = {k: v for k, v in data.items() if k != "type"}
    unknown = payload.keys() - known
    if unknown:
        raise ValueError(f"{cls.__name__}: unknown fields {sorted(unknown)}")
    return cls(**payload)
