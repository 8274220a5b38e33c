from datetime import date

import pytest

from meterly.clock import Period
from meterly.errors import InvalidTransition
from meterly.money import Money
from meterly.proration import change_lines, prorate, unused_fraction

JAN = Period(date(2024, 1, 1), date(2024, 2, 1))


def test_unused_fraction():
    assert unused_fraction(JAN, date(2024, 1, 1)) == 1
    assert unused_fraction(JAN, date(2024, 2, 1)) == 0
    assert prorate(Money("31.00"), JAN, date(2024, 1, 22)) == Money("10.00")


def test_upgrade_lines(catalog):
    lines = change_lines(catalog.get("basic"), 1, catalog.get("pro"), 1, JAN, date(2024, 1, 17))
    assert [(l.kind, l.amount) for l in lines] == [
        ("proration", Money("-9.68")),
        ("proration", Money("24.19")),
    ]


def test_seat_change_lines(catalog):
    team = catalog.get("team")
    lines = change_lines(team, 2, team, 5, JAN, date(2024, 1, 1))
    assert sum(l.amount for l in lines) == Money("36.00")


def test_interval_change_refused(catalog):
    with pytest.raises(InvalidTransition):
        change_lines(catalog.get("basic"), 1, catalog.get("annual"), 1, JAN, date(2024, 1, 10))
