from datetime import date, datetime
from decimal import Decimal

from meterly.clock import Period
from meterly.money import Money
from meterly.plans import MeteredPrice, Tier
from meterly.proration import change_lines, prorate, unused_fraction
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

FEB = Period(date(2024, 2, 1), date(2024, 3, 1))
VOLUME = MeteredPrice("gb", (Tier(10, "3", "1"), Tier(100, "2", "5"), Tier(None, "1", "50")), mode="volume")
GRADUATED = MeteredPrice("gb", (Tier(10, "3", "1"), Tier(100, "2", "5"), Tier(None, "1", "50")))


def test_days_from_counts_the_day_itself():
    assert FEB.days_from(date(2024, 2, 29)) == 1
    assert FEB.days_from(date(2024, 2, 2)) == 28
    assert FEB.days_from(date(2024, 2, 1)) == 29
    assert FEB.days_from(date(2024, 3, 1)) == 0


def test_unused_fraction_on_last_day():
    assert prorate(Money("29.00"), FEB, date(2024, 2, 29)).amount == Decimal("1.00")
    assert prorate(Money("29.00"), FEB, date(2024, 2, 15)).amount == Decimal("15.00")
    assert unused_fraction(FEB, date(2024, 2, 1)) == 1


def test_change_lines_on_last_day(catalog):
    lines = change_lines(catalog.get("basic"), 1, catalog.get("pro"), 1, FEB, date(2024, 2, 29))
    assert plain([l.amount for l in lines]) == ["USD -0.69", "USD 1.72"]


def test_volume_at_each_limit():
    assert VOLUME.price(10) == Decimal("31")
    assert VOLUME.price(11) == Decimal("27")
    assert VOLUME.price(100) == Decimal("205")
    assert VOLUME.price(101) == Decimal("151")


def test_graduated_at_each_limit():
    assert GRADUATED.price(10) == Decimal("31")
    assert GRADUATED.price(11) == Decimal("38")
    assert GRADUATED.price(100) == Decimal("216")
    assert GRADUATED.price(101) == Decimal("267")


def test_mid_month_upgrade_invoice(engine, jan1):
    sub = engine.subscribe("acme", "team", jan1, quantity=2)
    engine.subscriptions.change(sub, date(2024, 1, 31), quantity=3)
    [invoice] = engine.run(date(2024, 2, 1))
    assert plain([l.amount for l in invoice.lines if l.kind == "proration"]) == ["USD -0.77", "USD 1.16"]
    assert invoice.total.amount == Decimal("36.39")


def test_storage_max_at_limit(engine, jan1):
    sub = engine.subscribe("acme", "storage", jan1)
    for day, gb in ((3, 40), (12, 100), (20, 70)):
        engine.record_usage(UsageEvent(sub.id, "gb", gb, datetime(2024, 1, day)))
    [invoice] = engine.run(date(2024, 2, 1))
    assert invoice.total.amount == Decimal("10.00")
