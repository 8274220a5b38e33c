from datetime import datetime

from fulfillment import Event, Order, OrderLine, State, fire
from reports import audit_trail, time_in_state


def at(hour):
    return datetime(2025, 6, 3, hour)


def new_order(order_id):
    return Order(order_id, [OrderLine("SKU-1", 1)], total_cents=100, paid_cents=100)


def test_new_order_has_empty_history():
    fire(new_order("X-1"), Event.PAY, at(9))
    assert new_order("X-2").history == []


def test_histories_are_separate():
    first, second = new_order("Y-1"), new_order("Y-2")
    fire(first, Event.PAY, at(9))
    fire(first, Event.CANCEL, at(10))
    fire(second, Event.CANCEL, at(11))
    assert audit_trail(second) == ["2025-06-03 11:00 new -cancel-> cancelled"]


def test_first_history_untouched_by_second():
    first, second = new_order("Z-1"), new_order("Z-2")
    fire(first, Event.PAY, at(9))
    fire(second, Event.PAY, at(10))
    assert len(first.history) == 1


def test_time_in_state_per_order():
    first, second = new_order("W-1"), new_order("W-2")
    fire(first, Event.PAY, at(9))
    fire(second, Event.PAY, at(10))
    fire(first, Event.START_PICKING, at(12))
    assert time_in_state(first, State.PAID).total_seconds() == 3 * 3600


def test_explicit_history_is_kept():
    earlier = [(at(8), State.NEW, Event.PAY, State.PAID)]
    order = Order("V-1", [], state=State.PAID, history=earlier)
    fire(order, Event.CANCEL, at(9))
    assert len(order.history) == 2


def test_machine_unchanged():
    order = new_order("U-1")
    assert fire(order, Event.PAY, at(9)) is State.PAID
