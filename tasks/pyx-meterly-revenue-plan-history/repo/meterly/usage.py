"""Usage events and the ledger that aggregates them per billing period.

Clients report usage with an idempotency ``key``; a retried report with a key the ledger has
already seen is ignored, so network retries never bill twice.
"""

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from .money import to_decimal


@dataclass(frozen=True)
class UsageEvent:
    subscription_id: str
    metric: str
    quantity: Decimal
    timestamp: datetime
    key: str | None = None

    def __post_init__(self):
        object.__setattr__(self, "quantity", to_decimal(self.quantity))
        if self.quantity < 0:
            raise ValueError("usage quantity cannot be negative")


class UsageLedger:
    """Every usage event accepted so far, in arrival order."""

    def __init__(self, events=()):
        self._events = []
        self._keys = set()
        for event in events:
            self.record(event)

    def record(self, event):
        """Add ``event``; False (and nothing recorded) when its key was already seen."""
        if event.key is not None:
            if event.key in self._keys:
                return False
            self._keys.add(event.key)
        self._events.append(event)
        return True

    def events(self):
        return list(self._events)

    def __len__(self):
        return len(self._events)

    def events_in(self, subscription_id, metric, period):
        """The events of one subscription and metric inside ``period``, oldest first."""
        found = [
            e
            for e in self._events
            if e.subscription_id == subscription_id and e.metric == metric and period.contains(e.timestamp)
        ]
        found.sort(key=lambda e: e.timestamp)
        return found

    def aggregate(self, subscription_id, metric, period, how="sum"):
        """Usage of ``period`` aggregated as ``sum``, ``max`` or ``last`` (0 without events)."""
        events = self.events_in(subscription_id, metric, period)
        if not events:
            return Decimal(0)
        if how == "sum":
            return sum((e.quantity for e in events), Decimal(0))
        if how == "max":
            return max(e.quantity for e in events)
        if how == "last":
            return events[-1].quantity
        raise ValueError(f"unknown aggregation {how!r}")
