from datetime import date, timedelta
from decimal import Decimal

from meterly import reports
from meterly.money import Money
from meterly.subscriptions import Status


def plain(value):
    """``value`` with every Money written out as text ("USD 12.50"), for comparisons."""
    if isinstance(value, Money):
        return str(value)
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(plain(item) for item in value)
    return value


def days(start, *offsets):
    return [start + timedelta(days=o) for o in offsets]


def test_retries_count_from_due_date(engine, gateway, jan1):
    sub = engine.subscribe("nyc", "basic", jan1)
    [invoice] = engine.invoices.values()
    assert invoice.due_on == date(2024, 1, 16)
    gateway.fail("nyc")
    [first] = engine.collect(date(2024, 1, 16))
    assert not first.succeeded and sub.status == Status.PAST_DUE
    assert engine.collector.next_attempt_on(invoice) == date(2024, 1, 19)
    assert engine.collect(date(2024, 1, 17)) == []
    assert engine.collect(date(2024, 1, 18)) == []
    [retry] = engine.collect(date(2024, 1, 19))
    assert retry.succeeded and sub.status == Status.ACTIVE


def test_retry_schedule_with_terms(engine, gateway, jan1):
    engine.subscribe("nyc", "basic", jan1)
    [invoice] = engine.invoices.values()
    gateway.fail("nyc", times=3)
    planned = []
    for day in days(date(2024, 1, 16), 0, 3, 5):
        planned.append(engine.collector.next_attempt_on(invoice))
        engine.collect(day)
    planned.append(engine.collector.next_attempt_on(invoice))
    assert planned == [date(2024, 1, 16), date(2024, 1, 19), date(2024, 1, 21), date(2024, 1, 23)]


def test_cancellation_after_last_retry_with_terms(engine, gateway, jan1):
    sub = engine.subscribe("nyc", "basic", jan1)
    gateway.fail("nyc", times=4)
    attempts = []
    for day in days(date(2024, 1, 16), 0, 1, 2, 3, 4, 5, 6, 7, 8):
        attempts.extend(engine.collect(day))
    assert [a.on for a in attempts] == [date(2024, 1, 16), date(2024, 1, 19), date(2024, 1, 21), date(2024, 1, 23)]
    assert sub.status == Status.CANCELED and sub.canceled_on == date(2024, 1, 23)


def test_terms_without_failures(engine, gateway, jan1):
    engine.subscribe("nyc", "basic", jan1)
    for day in days(jan1, 0, 5, 10, 14):
        assert engine.collect(day) == []
    assert len(engine.collect(date(2024, 1, 16))) == 1
    assert plain(gateway.charges) == [("nyc", "USD 21.78", "INV-00001")]


def test_retries_without_terms_unchanged(engine, gateway, jan1):
    engine.subscribe("acme", "basic", jan1)
    gateway.fail("acme", times=2)
    attempts = []
    for day in days(jan1, 0, 1, 2, 3, 4, 5):
        attempts.extend(engine.collect(day))
    assert [(a.on, a.succeeded) for a in attempts] == [
        (date(2024, 1, 1), False),
        (date(2024, 1, 4), False),
        (date(2024, 1, 6), True),
    ]


def test_aging_not_due_yet_is_current(engine, jan1):
    engine.subscribe("nyc", "pro", jan1)
    assert reports.aging(engine, date(2024, 1, 10))["USD"]["current"].amount == Decimal("54.44")
    assert reports.aging(engine, date(2024, 1, 16))["USD"]["current"].amount == Decimal("54.44")


def test_aging_buckets_from_due_date(engine, jan1):
    engine.subscribe("nyc", "pro", jan1)
    assert reports.aging(engine, date(2024, 1, 20))["USD"]["1-30"].amount == Decimal("54.44")
    assert reports.aging(engine, date(2024, 2, 15))["USD"]["1-30"].amount == Decimal("54.44")
    assert reports.aging(engine, date(2024, 2, 16))["USD"]["31-60"].amount == Decimal("54.44")
    assert reports.aging(engine, date(2024, 4, 15))["USD"]["61-90"].amount == Decimal("54.44")
    assert reports.aging(engine, date(2024, 4, 16))["USD"]["90+"].amount == Decimal("54.44")


def test_aging_mixes_terms(engine, jan1):
    engine.subscribe("acme", "basic", jan1)
    engine.subscribe("nyc", "pro", jan1)
    report = reports.aging(engine, date(2024, 2, 10))
    assert report["USD"]["31-60"].amount == Decimal("20.00")
    assert report["USD"]["1-30"].amount == Decimal("54.44")
