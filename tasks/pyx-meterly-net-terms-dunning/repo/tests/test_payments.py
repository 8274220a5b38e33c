from datetime import date

from meterly.money import Money
from meterly.subscriptions import Status


def test_paid_on_due_date(engine, gateway, jan1):
    engine.subscribe("acme", "basic", jan1)
    [attempt] = engine.collect(jan1)
    assert attempt.succeeded
    assert engine.open_invoices() == []
    assert gateway.charges == [("acme", Money("20.00"), "INV-00001")]


def test_nothing_before_due_date(engine, jan1):
    engine.subscribe("nyc", "basic", jan1)
    assert engine.collect(date(2024, 1, 15)) == []
    assert len(engine.collect(date(2024, 1, 16))) == 1


def test_failure_then_retry_recovers(engine, gateway, jan1):
    sub = engine.subscribe("acme", "basic", jan1)
    gateway.fail("acme")
    [first] = engine.collect(jan1)
    assert not first.succeeded and sub.status == Status.PAST_DUE
    assert engine.collect(date(2024, 1, 3)) == []
    [retry] = engine.collect(date(2024, 1, 4))
    assert retry.succeeded and sub.status == Status.ACTIVE


def test_exhausted_retries_cancel(engine, gateway, jan1):
    sub = engine.subscribe("acme", "basic", jan1)
    gateway.fail("acme", times=4)
    days = [jan1, date(2024, 1, 4), date(2024, 1, 6), date(2024, 1, 8)]
    for day in days:
        engine.collect(day)
    [invoice] = engine.invoices.values()
    assert invoice.status == "uncollectible"
    assert sub.status == Status.CANCELED and sub.canceled_on == date(2024, 1, 8)
