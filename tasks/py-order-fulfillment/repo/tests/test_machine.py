from datetime import datetime

import pytest

from fulfillment import (Event, GuardFailed, InvalidTransition, Order, OrderLine, State, fire,
                         parse_event)


def t(hour):
    return datetime(2025, 6, 2, hour)


def paid_order():
    order = Order("A-1", [OrderLine("SKU-1", 2)], total_cents=500, paid_cents=500)
    fire(order, Event.PAY, t(9))
    return order


def test_happy_path():
    order = paid_order()
    fire(order, "start-picking", t(10))
    order.lines[0].picked = 2
    fire(order, "pack", t(11))
    order.tracking_number = "1Z999"
    fire(order, "ship", t(12))
    fire(order, "deliver", t(15))
    assert order.state is State.DELIVERED
    assert order.history[-1][1:] == (State.SHIPPED, Event.DELIVER, State.DELIVERED)


def test_guards():
    order = Order("A-2", [OrderLine("SKU-1", 1)], total_cents=500, paid_cents=100)
    with pytest.raises(GuardFailed):
        fire(order, Event.PAY, t(9))
    assert order.state is State.NEW


def test_invalid_transition_lists_allowed_events():
    order = paid_order()
    with pytest.raises(InvalidTransition, match="allowed: start_picking, cancel"):
        fire(order, Event.SHIP, t(10))


def test_parse_event():
    assert parse_event(" Start-Picking ") is Event.START_PICKING
