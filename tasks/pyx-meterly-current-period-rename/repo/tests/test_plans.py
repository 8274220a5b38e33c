from decimal import Decimal

import pytest

from meterly.errors import UnknownPlan
from meterly.money import Money
from meterly.plans import MeteredPrice, Plan, Tier


def test_recurring_amount_per_seat(catalog):
    assert catalog.get("team").recurring_amount(5) == Money("60.00")
    assert catalog.get("basic").recurring_amount(5) == Money("20.00")


def test_monthly_amount_of_annual_plan(catalog):
    assert catalog.get("annual").monthly_amount().rounded() == Money("20.00")


def test_graduated_tiers(catalog):
    api = catalog.get("api")
    assert api.usage_amount(500) == Money("5.00")
    assert api.usage_amount(1500) == Money("12.50")
    assert api.usage_amount(12000) == Money("59.00")


def test_volume_tiers(catalog):
    storage = catalog.get("storage")
    assert storage.usage_amount(50) == Money("5.00")
    assert storage.usage_amount(150) == Money("12.00")


def test_no_usage_costs_nothing(catalog):
    assert catalog.get("api").usage_amount(0) == Money("0")
    assert catalog.get("basic").usage_amount(100) == Money("0")


def test_flat_fees_per_tier_reached():
    price = MeteredPrice("seats", (Tier(10, "0", "5"), Tier(None, "1", "20")))
    assert price.price(3) == Decimal("5")
    assert price.price(12) == Decimal("27")


def test_tiers_must_end_unbounded():
    with pytest.raises(ValueError):
        MeteredPrice("x", (Tier(10, "1"),))
    with pytest.raises(ValueError):
        MeteredPrice("x", (Tier(10, "1"), Tier(5, "1"), Tier(None, "1")))


def test_unknown_plan(catalog):
    with pytest.raises(UnknownPlan, match="basic"):
        catalog.get("gold")


def test_unknown_interval():
    with pytest.raises(ValueError):
        Plan("x", "X", "1", interval="week")
