"""Envelope definitions."""
from dataclasses import dataclass
from typing import Optional

from .money import money


@dataclass(frozen=True)
class Envelope:
    """A spending category.

    ``target``: what the envelope should receive each month. ``priority``: lower is funded
    first. ``carry_over``: whether money left at the end of a month stays in the envelope
    (sinking funds such as holidays) or goes back. ``cap``: the most a carry-over envelope
    may carry (``None``: no limit).
    """

    name: str
    target: object
    priority: int = 10
    carry_over: bool = False
    cap: Optional[object] = None

    def __post_init__(self):
        object.__setattr__(self, "target", money(self.target))
        if self.cap is not None:
            object.__setattr__(self, "cap", money(self.cap))


def funding_order(envelopes):
    """Envelopes in the order they are funded: by priority, then name."""
    return sorted(envelopes, key=lambda e: (e.priority, e.name))
