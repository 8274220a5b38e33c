from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

from meterly import store
from meterly.clock import Period
from meterly.usage import UsageEvent, UsageLedger

from .conftest import make_taxes

NEW_YORK = timezone(timedelta(hours=-5))
BERLIN = timezone(timedelta(hours=1))
JAN = Period(date(2024, 1, 1), date(2024, 2, 1))
FEB = Period(date(2024, 2, 1), date(2024, 3, 1))


def ev(qty, when, key=None):
    return UsageEvent("sub_0001", "requests", qty, when, key)


def usage_of(invoice):
    return [l.quantity for l in invoice.lines if l.kind == "usage"]


def test_contains_uses_the_utc_day():
    assert not JAN.contains(datetime(2024, 1, 31, 23, 30, tzinfo=NEW_YORK))
    assert FEB.contains(datetime(2024, 1, 31, 23, 30, tzinfo=NEW_YORK))
    assert JAN.contains(datetime(2024, 2, 1, 0, 30, tzinfo=BERLIN))
    assert JAN.contains(datetime(2024, 1, 31, 23, 59))
    assert JAN.contains(date(2024, 1, 31))


def test_aware_events_in_their_utc_period():
    ledger = UsageLedger([
        ev(5, datetime(2024, 1, 31, 23, 30, tzinfo=NEW_YORK)),
        ev(7, datetime(2024, 2, 1, 0, 30, tzinfo=BERLIN)),
        ev(11, datetime(2024, 1, 15, 12, 0, tzinfo=timezone.utc)),
    ])
    assert ledger.aggregate("sub_0001", "requests", JAN) == 18
    assert ledger.aggregate("sub_0001", "requests", FEB) == 5


def test_mixed_naive_and_aware_events():
    ledger = UsageLedger([
        ev(1, datetime(2024, 1, 20, 12, 0)),
        ev(2, datetime(2024, 1, 20, 12, 30, tzinfo=BERLIN)),
        ev(3, datetime(2024, 1, 10, 9, 0, tzinfo=NEW_YORK)),
    ])
    assert ledger.aggregate("sub_0001", "requests", JAN) == 6
    assert ledger.aggregate("sub_0001", "requests", JAN, "max") == 3
    assert ledger.aggregate("sub_0001", "requests", JAN, "last") == 1


def test_last_is_the_latest_instant():
    ledger = UsageLedger([
        ev(10, datetime(2024, 1, 20, 10, 0, tzinfo=NEW_YORK)),
        ev(20, datetime(2024, 1, 20, 12, 0, tzinfo=BERLIN)),
    ])
    assert ledger.aggregate("sub_0001", "requests", JAN, "last") == 10


def test_billing_run_with_mixed_collectors(engine, jan1):
    sub = engine.subscribe("acme", "api", jan1)
    engine.record_usage(UsageEvent(sub.id, "requests", 600, datetime(2024, 1, 10, 8)))
    engine.record_usage(UsageEvent(sub.id, "requests", 400, datetime(2024, 1, 12, 8, tzinfo=BERLIN)))
    engine.record_usage(UsageEvent(sub.id, "requests", 900, datetime(2024, 1, 31, 23, 30, tzinfo=NEW_YORK)))
    [jan_invoice] = engine.run(date(2024, 2, 1))
    assert usage_of(jan_invoice) == [1000]
    [feb_invoice] = engine.run(date(2024, 3, 1))
    assert usage_of(feb_invoice) == [900]


def test_offsets_survive_save_and_load(tmp_path, engine, gateway, catalog, jan1):
    sub = engine.subscribe("acme", "api", jan1)
    engine.record_usage(UsageEvent(sub.id, "requests", 300, datetime(2024, 1, 9, 10)))
    engine.record_usage(UsageEvent(sub.id, "requests", 900, datetime(2024, 1, 31, 23, 30, tzinfo=NEW_YORK)))
    path = tmp_path / "state.json"
    store.save(engine, path)
    loaded = store.load(path, catalog, gateway, make_taxes())
    [jan_invoice] = loaded.run(date(2024, 2, 1))
    assert usage_of(jan_invoice) == [300]
    assert jan_invoice.total.amount == Decimal("13.00")


def test_storage_max_with_offsets(engine, jan1):
    sub = engine.subscribe("acme", "storage", jan1)
    engine.record_usage(UsageEvent(sub.id, "gb", 120, datetime(2024, 2, 1, 0, 30, tzinfo=BERLIN)))
    engine.record_usage(UsageEvent(sub.id, "gb", 90, datetime(2024, 1, 5)))
    [invoice] = engine.run(date(2024, 2, 1))
    assert invoice.total.amount == Decimal("9.60")
