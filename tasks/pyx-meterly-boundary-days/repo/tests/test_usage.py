from datetime import date, datetime

import pytest

from meterly.clock import Period
from meterly.usage import UsageEvent, UsageLedger

JAN = Period(date(2024, 1, 1), date(2024, 2, 1))


def ev(qty, day, key=None, sub="sub_0001", metric="requests", hour=12):
    return UsageEvent(sub, metric, qty, datetime(2024, 1, day, hour), key)


def test_duplicate_keys_are_ignored():
    ledger = UsageLedger()
    assert ledger.record(ev(10, 5, key="a"))
    assert not ledger.record(ev(10, 5, key="a"))
    assert ledger.record(ev(10, 5))
    assert ledger.record(ev(10, 5))
    assert len(ledger) == 3


def test_aggregations():
    ledger = UsageLedger([ev(10, 3), ev(40, 9), ev(25, 20)])
    assert ledger.aggregate("sub_0001", "requests", JAN) == 75
    assert ledger.aggregate("sub_0001", "requests", JAN, "max") == 40
    assert ledger.aggregate("sub_0001", "requests", JAN, "last") == 25


def test_aggregate_filters_subscription_and_metric():
    ledger = UsageLedger([ev(10, 3), ev(5, 3, sub="sub_0002"), ev(7, 3, metric="gb")])
    assert ledger.aggregate("sub_0001", "requests", JAN) == 10
    assert ledger.aggregate("sub_0003", "requests", JAN) == 0


def test_last_is_by_time_not_arrival():
    ledger = UsageLedger([ev(30, 20), ev(10, 2)])
    assert ledger.aggregate("sub_0001", "requests", JAN, "last") == 30


def test_negative_usage_rejected():
    with pytest.raises(ValueError):
        ev(-1, 3)
