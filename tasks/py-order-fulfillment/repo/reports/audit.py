"""Audit reports built from an order's history."""


def audit_trail(order):
    """One line per transition: ``2025-01-02 10:00 new -pay-> paid``."""
    return [f"{at:%Y-%m-%d %H:%M} {src.value} -{event.value}-> {dst.value}"
            for at, src, event, dst in order.history]


def time_in_state(order, state):
    """Total time ``order`` spent in ``state`` between transitions (a timedelta or None)."""
    total = None
    entered = None
    for at, src, _, dst in order.history:
        if src == state and entered is not None:
            total = (at - entered) if total is None else total + (at - entered)
            entered = None
        if dst == state:
            entered = at
    return total
