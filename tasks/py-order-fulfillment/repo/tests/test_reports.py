from datetime import datetime, timedelta

from fulfillment import Event, Order, OrderLine, State, fire
from notifications import Outbox
from reports import audit_trail, time_in_state


def test_audit_trail():
    order = Order("B-1", [OrderLine("SKU-9", 1)], total_cents=100, paid_cents=100)
    fire(order, Event.PAY, datetime(2025, 6, 2, 9, 0))
    fire(order, Event.START_PICKING, datetime(2025, 6, 2, 9, 30))
    fire(order, Event.CANCEL, datetime(2025, 6, 2, 11, 0))
    assert audit_trail(order)[-1] == "2025-06-02 11:00 picking -cancel-> cancelled"


def test_time_in_state():
    history = [
        (datetime(2025, 6, 2, 9, 0), State.NEW, Event.PAY, State.PAID),
        (datetime(2025, 6, 2, 9, 30), State.PAID, Event.START_PICKING, State.PICKING),
        (datetime(2025, 6, 2, 11, 0), State.PICKING, Event.CANCEL, State.CANCELLED),
    ]
    order = Order("B-3", [], state=State.CANCELLED, history=history)
    assert time_in_state(order, State.PICKING) == timedelta(hours=1, minutes=30)
    assert time_in_state(order, State.PACKED) is None


def test_outbox_collects_messages():
    outbox = Outbox()
    order = Order("B-2", [], total_cents=0)
    fire(order, Event.PAY, datetime(2025, 6, 2, 9), [outbox])
    fire(order, Event.CANCEL, datetime(2025, 6, 2, 10), [outbox])
    assert outbox.for_order("B-2") == [
        "Thanks! We received your payment for order B-2.", "Order B-2 was cancelled."]
