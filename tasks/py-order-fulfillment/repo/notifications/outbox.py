"""An outbox that collects messages instead of sending them (the mailer drains it)."""
from .messages import message_for


class Outbox:
    """A state-machine listener: call it as ``listener(order, from_state, event)``."""

    def __init__(self):
        self.messages = []

    def __call__(self, order, from_state, event):
        text = message_for(order)
        if text is not None:
            self.messages.append((order.order_id, text))

    def for_order(self, order_id):
        return [text for oid, text in self.messages if oid == order_id]
