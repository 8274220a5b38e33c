"""Errors raised by the state machine."""


class InvalidTransition(Exception):
    """The event is not allowed in the order's current state."""


class GuardFailed(Exception):
    """The transition exists but its precondition does not hold."""
