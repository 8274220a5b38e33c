from datetime import date

from meterly import reports
from meterly.coupons import Coupon
from meterly.money import Money
from meterly.plans import Plan


def add_quarterly(catalog, price="45.00"):
    catalog.add(Plan("quarterly", "Quarterly", price, interval="quarter"))


def test_monthly_amount_per_interval(catalog):
    add_quarterly(catalog)
    assert catalog.get("annual").monthly_amount().rounded() == Money("20.00")
    assert catalog.get("quarterly").monthly_amount().rounded() == Money("15.00")
    assert catalog.get("basic").monthly_amount() == Money("20.00")


def test_monthly_amount_counts_seats_only_when_per_seat(catalog):
    assert catalog.get("team").monthly_amount(4) == Money("48.00")
    assert catalog.get("basic").monthly_amount(4) == Money("20.00")


def test_monthly_amount_is_not_rounded(catalog):
    catalog.add(Plan("q100", "Q100", "100.00", interval="quarter"))
    assert (catalog.get("q100").monthly_amount() * 3).rounded() == Money("100.00")


def test_mrr_annual_and_quarterly(engine, catalog, jan1):
    add_quarterly(catalog)
    engine.subscribe("acme", "annual", jan1)
    engine.subscribe("acme", "quarterly", jan1)
    assert reports.mrr(engine) == {"USD": Money("35.00")}


def test_mrr_quantity_on_flat_plan(engine, jan1):
    engine.subscribe("acme", "basic", jan1, quantity=3)
    engine.subscribe("acme", "team", jan1, quantity=3)
    assert reports.mrr(engine) == {"USD": Money("56.00")}


def test_mrr_amount_coupon_on_annual_plan(engine, jan1):
    engine.subscribe("acme", "annual", jan1, coupon=Coupon("Y120", amount_off=Money("120"), duration="forever"))
    assert reports.mrr(engine) == {"USD": Money("10.00")}


def test_mrr_percent_coupon_on_annual_plan(engine, jan1):
    engine.subscribe("acme", "annual", jan1, coupon=Coupon("Q", percent_off=25, duration="forever"))
    assert reports.mrr(engine) == {"USD": Money("15.00")}


def test_mrr_rounds_the_total(engine, catalog, jan1):
    catalog.add(Plan("q100", "Q100", "100.00", interval="quarter"))
    for _ in range(3):
        engine.subscribe("acme", "q100", jan1)
    assert reports.mrr(engine) == {"USD": Money("100.00")}


def test_mrr_counts_past_due_not_canceled(engine, gateway, jan1):
    late = engine.subscribe("acme", "annual", jan1)
    gone = engine.subscribe("acme", "team", jan1, quantity=2)
    gateway.fail("acme")
    engine.collect(jan1)
    assert late.status.value == "past_due"
    engine.subscriptions.cancel(gone, date(2024, 1, 5), at_period_end=False)
    assert reports.mrr(engine) == {"USD": Money("20.00")}


def test_mrr_monthly_plans_unchanged(engine, jan1):
    engine.subscribe("acme", "pro", jan1, coupon=Coupon("TEN", amount_off=Money("10"), duration="forever"))
    engine.subscribe("berlin", "eu-basic", jan1)
    assert reports.mrr(engine) == {"EUR": Money("20.00", "EUR"), "USD": Money("40.00")}
