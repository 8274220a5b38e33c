from datetime import date, datetime

import pytest

from meterly.clock import Period, add_months, billing_period, next_period


def test_add_months_clamps_to_month_end():
    assert add_months(date(2024, 1, 31), 1) == date(2024, 2, 29)
    assert add_months(date(2023, 1, 31), 1) == date(2023, 2, 28)
    assert add_months(date(2024, 11, 15), 3) == date(2025, 2, 15)


def test_add_months_with_anchor_day():
    assert add_months(date(2024, 2, 29), 1, anchor_day=31) == date(2024, 3, 31)
    assert add_months(date(2024, 4, 30), 1, anchor_day=31) == date(2024, 5, 31)


def test_period_is_half_open():
    p = Period(date(2024, 1, 1), date(2024, 2, 1))
    assert p.days == 31
    assert p.contains(date(2024, 1, 1))
    assert p.contains(datetime(2024, 1, 31, 23, 59))
    assert not p.contains(date(2024, 2, 1))


def test_days_from():
    p = Period(date(2024, 1, 1), date(2024, 2, 1))
    assert p.days_from(date(2023, 12, 1)) == 31
    assert p.days_from(date(2024, 1, 16)) == 16
    assert p.days_from(date(2024, 3, 1)) == 0


def test_empty_period_rejected():
    with pytest.raises(ValueError):
        Period(date(2024, 1, 1), date(2024, 1, 1))


def test_consecutive_periods():
    first = billing_period(date(2024, 1, 15), 1)
    second = next_period(first, 1)
    assert (first.end, second.start, second.end) == (date(2024, 2, 15), date(2024, 2, 15), date(2024, 3, 15))
