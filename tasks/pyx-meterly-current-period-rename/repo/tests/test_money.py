from decimal import Decimal

import pytest

from meterly.errors import CurrencyMismatch
from meterly.money import Money, total


def test_amounts_are_decimal():
    assert Money("19.99").amount == Decimal("19.99")
    assert Money(5, "eur").currency == "EUR"


def test_floats_are_refused():
    with pytest.raises(TypeError):
        Money(0.1)


def test_arithmetic_and_currency_checks():
    assert Money("1.10") + Money("2.20") == Money("3.30")
    assert Money("5") - Money("7.5") == Money("-2.5")
    assert Money("3") * 2 == Money("6")
    with pytest.raises(CurrencyMismatch):
        Money("1", "USD") + Money("1", "EUR")


def test_rounding_half_up():
    assert Money("0.125").rounded() == Money("0.13")
    assert Money("-0.125").rounded() == Money("-0.13")
    assert str(Money("1234.5")) == "USD 1,234.50"


def test_allocate_keeps_every_cent():
    parts = Money("100.00").allocate([1, 1, 1])
    assert parts == [Money("33.34"), Money("33.33"), Money("33.33")]
    assert total(parts, "USD") == Money("100.00")


def test_allocate_by_weight():
    assert Money("10.00").allocate([3, 1]) == [Money("7.50"), Money("2.50")]
    assert Money("0.05").allocate([1, 1]) == [Money("0.03"), Money("0.02")]


def test_sum_works_with_builtin():
    assert sum([Money("1"), Money("2")]) == Money("3")
