"""Message texts per new state; states without a text send nothing."""
from fulfillment import State

TEXTS = {
    State.PAID: "Thanks! We received your payment for order {order_id}.",
    State.SHIPPED: "Order {order_id} is on its way (tracking {tracking}).",
    State.DELIVERED: "Order {order_id} was delivered.",
    State.CANCELLED: "Order {order_id} was cancelled.",
    State.RETURNED: "We received the return of order {order_id}.",
}


def message_for(order):
    """The text for ``order``'s current state, or ``None``."""
    text = TEXTS.get(order.state)
    if text is None:
        return None
    return text.format(order_id=order.order_id, tracking=order.tracking_number)
