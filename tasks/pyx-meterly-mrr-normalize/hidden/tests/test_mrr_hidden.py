from datetime import date
from decimal import Decimal

from meterly import reports
from meterly.coupons import Coupon
from meterly.money import Money
from meterly.plans import Plan


def plain(value):
    """``value`` with every Money written out as text ("USD 12.50"), for comparisons."""
    if isinstance(value, Money):
        return str(value)
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(plain(item) for item in value)
    return value


def add_quarterly(catalog, price="45.00"):
    catalog.add(Plan("quarterly", "Quarterly", price, interval="quarter"))


def test_monthly_amount_per_interval(catalog):
    add_quarterly(catalog)
    assert catalog.get("annual").monthly_amount().rounded().amount == Decimal("20.00")
    assert catalog.get("quarterly").monthly_amount().rounded().amount == Decimal("15.00")
    assert catalog.get("basic").monthly_amount().amount == Decimal("20.00")


def test_monthly_amount_counts_seats_only_when_per_seat(catalog):
    assert catalog.get("team").monthly_amount(4).amount == Decimal("48.00")
    assert catalog.get("basic").monthly_amount(4).amount == Decimal("20.00")


def test_monthly_amount_is_not_rounded(catalog):
    catalog.add(Plan("q100", "Q100", "100.00", interval="quarter"))
    assert (catalog.get("q100").monthly_amount() * 3).rounded().amount == Decimal("100.00")


def test_mrr_annual_and_quarterly(engine, catalog, jan1):
    add_quarterly(catalog)
    engine.subscribe("acme", "annual", jan1)
    engine.subscribe("acme", "quarterly", jan1)
    assert plain(reports.mrr(engine)) == {"USD": "USD 35.00"}


def test_mrr_quantity_on_flat_plan(engine, jan1):
    engine.subscribe("acme", "basic", jan1, quantity=3)
    engine.subscribe("acme", "team", jan1, quantity=3)
    assert plain(reports.mrr(engine)) == {"USD": "USD 56.00"}


def test_mrr_amount_coupon_on_annual_plan(engine, jan1):
    engine.subscribe("acme", "annual", jan1, coupon=Coupon("Y120", amount_off=Money("120"), duration="forever"))
    assert plain(reports.mrr(engine)) == {"USD": "USD 10.00"}


def test_mrr_percent_coupon_on_annual_plan(engine, jan1):
    engine.subscribe("acme", "annual", jan1, coupon=Coupon("Q", percent_off=25, duration="forever"))
    assert plain(reports.mrr(engine)) == {"USD": "USD 15.00"}


def test_mrr_rounds_the_total(engine, catalog, jan1):
    catalog.add(Plan("q100", "Q100", "100.00", interval="quarter"))
    for _ in range(3):
        engine.subscribe("acme", "q100", jan1)
    assert plain(reports.mrr(engine)) == {"USD": "USD 100.00"}


def test_mrr_counts_past_due_not_canceled(engine, gateway, jan1):
    late = engine.subscribe("acme", "annual", jan1)
    gone = engine.subscribe("acme", "team", jan1, quantity=2)
    gateway.fail("acme")
    engine.collect(jan1)
    assert late.status.value == "past_due"
    engine.subscriptions.cancel(gone, date(2024, 1, 5), at_period_end=False)
    assert plain(reports.mrr(engine)) == {"USD": "USD 20.00"}


def test_mrr_monthly_plans_unchanged(engine, jan1):
    engine.subscribe("acme", "pro", jan1, coupon=Coupon("TEN", amount_off=Money("10"), duration="forever"))
    engine.subscribe("berlin", "eu-basic", jan1)
    assert plain(reports.mrr(engine)) == {"EUR": "EUR 20.00", "USD": "USD 40.00"}
