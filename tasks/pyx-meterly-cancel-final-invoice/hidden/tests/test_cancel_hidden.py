from datetime import date, datetime
from decimal import Decimal

import pytest

from meterly.errors import InvalidTransition
from meterly.money import Money
from meterly.usage import UsageEvent


def plain(value):
    """``value`` with every Money written out as text ("USD 12.50"), for comparisons."""
    if isinstance(value, Money):
        return str(value)
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(plain(item) for item in value)
    return value


def usage(engine, sub, qty, day, hour=12, month=1):
    engine.record_usage(UsageEvent(sub.id, "requests", qty, datetime(2024, month, day, hour)))


def kinds(invoice):
    return [(l.kind, l.amount) for l in invoice.lines]


def test_final_invoice_bills_usage_so_far(engine, jan1):
    sub = engine.subscribe("acme", "api", jan1)
    usage(engine, sub, 1500, 10)
    invoice = engine.cancel(sub.id, date(2024, 1, 20), at_period_end=False)
    assert invoice.issued_on == date(2024, 1, 20)
    assert plain(kinds(invoice)) == [("usage", "USD 12.50")]
    assert sub.status.value == "canceled"
    assert sub.canceled_on == date(2024, 1, 20)
    assert invoice.id in engine.invoices
    assert engine.run(date(2024, 3, 1)) == []


def test_usage_from_the_cancel_day_on_is_not_billed(engine, jan1):
    sub = engine.subscribe("acme", "api", jan1)
    usage(engine, sub, 500, 19, hour=23)
    usage(engine, sub, 700, 20, hour=1)
    invoice = engine.cancel(sub.id, date(2024, 1, 20), at_period_end=False)
    assert plain(kinds(invoice)) == [("usage", "USD 5.00")]


def test_usage_of_earlier_periods_is_not_billed_twice(engine, jan1):
    sub = engine.subscribe("acme", "api", jan1)
    usage(engine, sub, 1000, 15)
    engine.run(date(2024, 2, 1))
    usage(engine, sub, 200, 3, month=2)
    invoice = engine.cancel(sub.id, date(2024, 2, 10), at_period_end=False)
    assert plain(kinds(invoice)) == [("usage", "USD 2.00")]


def test_refund_of_unused_time(engine, jan1):
    sub = engine.subscribe("acme", "basic", jan1)
    invoice = engine.cancel(sub.id, date(2024, 1, 22), at_period_end=False, prorate=True)
    assert plain(kinds(invoice)) == [("proration", "USD -6.45")]
    assert invoice.amount_due.amount == Decimal("0")


def test_refund_with_seats_and_tax(engine, jan1):
    sub = engine.subscribe("nyc", "team", jan1, quantity=3)
    invoice = engine.cancel(sub.id, date(2024, 1, 1), at_period_end=False, prorate=True)
    assert plain(kinds(invoice)) == [("proration", "USD -36.00")]
    assert invoice.tax_total.amount == Decimal("0")


def test_pending_proration_goes_on_the_final_invoice(engine, jan1):
    sub = engine.subscribe("nyc", "team", jan1, quantity=2)
    engine.subscriptions.change(sub, date(2024, 1, 10), quantity=3)
    invoice = engine.cancel(sub.id, date(2024, 1, 20), at_period_end=False)
    assert plain(kinds(invoice)[:2]) == [("proration", "USD -17.03"), ("proration", "USD 25.55")]
    assert invoice.tax_total.amount == Decimal("0.76")
    assert invoice.total.amount == Decimal("9.28")
    assert sub.pending_lines == []


def test_nothing_to_bill(engine, jan1):
    sub = engine.subscribe("acme", "basic", jan1)
    before = len(engine.invoices)
    assert engine.cancel(sub.id, date(2024, 1, 20), at_period_end=False) is None
    assert len(engine.invoices) == before
    assert sub.status.value == "canceled"


def test_trial_is_canceled_without_invoice(engine, jan1):
    sub = engine.subscribe("acme", "trial", jan1)
    assert engine.cancel(sub.id, date(2024, 1, 5)) is None
    assert sub.status.value == "canceled"
    assert sub.canceled_on == date(2024, 1, 5)
    assert engine.run(date(2024, 3, 1)) == []
    assert engine.invoices == {}


def test_at_period_end_schedules(engine, jan1):
    sub = engine.subscribe("acme", "api", jan1)
    usage(engine, sub, 1500, 10)
    assert engine.cancel(sub.id, date(2024, 1, 20)) is None
    assert sub.cancel_at_period_end is True
    assert sub.status.value == "active"
    [final] = engine.run(date(2024, 3, 1))
    assert plain(kinds(final)) == [("usage", "USD 12.50")]
    assert sub.canceled_on == date(2024, 2, 1)


def test_cancel_twice_is_refused(engine, jan1):
    sub = engine.subscribe("acme", "basic", jan1)
    engine.cancel(sub.id, date(2024, 1, 20), at_period_end=False)
    with pytest.raises(InvalidTransition):
        engine.cancel(sub.id, date(2024, 1, 21), at_period_end=False)
