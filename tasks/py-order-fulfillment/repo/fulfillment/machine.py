"""Applying events to orders."""
from .errors import GuardFailed, InvalidTransition
from .events import Event, parse_event
from .transitions import TRANSITIONS, allowed_events


def fire(order, event, at, listeners=()):
    """Apply ``event`` (an :class:`Event` or its name) to ``order`` at datetime ``at``.

    Checks the transition and its guards, moves the order to the next state, appends to
    its history and finally calls each ``listener(order, from_state, event)``. Returns the
    new state.
    """
    if not isinstance(event, Event):
        event = parse_event(event)
    key = (order.state, event)
    if key not in TRANSITIONS:
        allowed = ", ".join(e.value for e in allowed_events(order.state)) or "none"
        raise InvalidTransition(
            f"cannot {event.value} order {order.order_id} in state {order.state.value} (allowed: {allowed})")
    target, checks = TRANSITIONS[key]
    for check in checks:
        problem = check(order)
        if problem:
            raise GuardFailed(problem)
    source = order.state
    order.state = target
    order.history.append((at, source, event, target))
    for listener in listeners:
        listener(order, source, event)
    return target
