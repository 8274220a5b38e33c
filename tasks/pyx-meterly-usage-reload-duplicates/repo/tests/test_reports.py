from datetime import date

from meterly import reports
from meterly.clock import Period
from meterly.coupons import Coupon
from meterly.money import Money


def test_mrr_per_currency(engine, jan1):
    engine.subscribe("acme", "basic", jan1)
    engine.subscribe("acme", "team", jan1, quantity=3)
    engine.subscribe("acme", "annual", jan1)
    engine.subscribe("berlin", "eu-basic", jan1)
    engine.subscribe("acme", "trial", jan1)
    assert reports.mrr(engine) == {"EUR": Money("20.00", "EUR"), "USD": Money("76.00")}


def test_mrr_after_coupons(engine, jan1):
    engine.subscribe("acme", "pro", jan1, coupon=Coupon("LOYAL", percent_off=10, duration="forever"))
    engine.subscribe("acme", "basic", jan1, coupon=Coupon("ONCE", percent_off=50))
    assert reports.mrr(engine) == {"USD": Money("65.00")}


def test_revenue_by_plan(engine, jan1):
    engine.subscribe("acme", "basic", jan1)
    engine.subscribe("acme", "pro", jan1)
    engine.run(date(2024, 2, 1))
    engine.collect(date(2024, 2, 1))
    assert reports.revenue_by_plan(engine) == {"basic": Money("40.00"), "pro": Money("100.00")}
    feb = Period(date(2024, 2, 1), date(2024, 3, 1))
    assert reports.revenue_by_plan(engine, feb) == {"basic": Money("40.00"), "pro": Money("100.00")}
    jan = Period(date(2024, 1, 2), date(2024, 2, 1))
    assert reports.revenue_by_plan(engine, jan) == {}


def test_aging(engine, gateway, jan1):
    engine.subscribe("acme", "basic", jan1)
    engine.subscribe("nyc", "pro", jan1)
    report = reports.aging(engine, date(2024, 2, 10))
    assert report["USD"]["31-60"] == Money("20.00")
    assert report["USD"]["1-30"] == Money("54.44")
    assert report["USD"]["current"] == Money("0")


def test_churn(engine, jan1):
    subs = [engine.subscribe("acme", "basic", jan1) for _ in range(4)]
    engine.subscriptions.cancel(subs[0], date(2024, 2, 10), at_period_end=False)
    engine.subscriptions.cancel(subs[1], date(2024, 1, 10), at_period_end=False)
    feb = Period(date(2024, 2, 1), date(2024, 3, 1))
    assert str(reports.churn(engine, feb)) == "0.3333"
