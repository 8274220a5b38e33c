"""Preconditions of transitions. Each guard returns an error message or ``None``."""


def fully_paid(order):
    if order.paid_cents < order.total_cents:
        return f"order {order.order_id} is not fully paid"
    return None


def all_lines_picked(order):
    missing = [line.sku for line in order.lines if not line.complete]
    if missing:
        return f"order {order.order_id} still has unpicked lines: {', '.join(missing)}"
    return None


def has_tracking_number(order):
    if not order.tracking_number:
        return f"order {order.order_id} has no tracking number"
    return None
