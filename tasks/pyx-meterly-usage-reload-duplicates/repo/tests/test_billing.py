from datetime import date, datetime

from meterly.coupons import Coupon
from meterly.money import Money
from meterly.subscriptions import Status
from meterly.usage import UsageEvent


def test_first_invoice_in_advance(engine, jan1):
    sub = engine.subscribe("acme", "basic", jan1)
    [invoice] = engine.invoices.values()
    assert invoice.subscription_id == sub.id
    assert invoice.total == Money("20.00")
    assert invoice.issued_on == jan1


def test_run_bills_each_boundary(engine, jan1):
    engine.subscribe("acme", "basic", jan1)
    issued = engine.run(date(2024, 3, 15))
    assert [i.issued_on for i in issued] == [date(2024, 2, 1), date(2024, 3, 1)]
    assert engine.run(date(2024, 3, 15)) == []


def test_usage_billed_in_arrears(engine, jan1):
    sub = engine.subscribe("acme", "api", jan1)
    engine.record_usage(UsageEvent(sub.id, "requests", 1500, datetime(2024, 1, 20, 8)))
    [invoice] = engine.run(date(2024, 2, 1))
    assert [(l.kind, l.amount) for l in invoice.lines] == [
        ("subscription", Money("10.00")),
        ("usage", Money("12.50")),
    ]


def test_trial_then_first_paid_period(engine, jan1):
    sub = engine.subscribe("acme", "trial", jan1)
    assert engine.invoices == {}
    [invoice] = engine.run(date(2024, 1, 15))
    assert sub.status == Status.ACTIVE
    assert (sub.period.start, sub.period.end) == (date(2024, 1, 15), date(2024, 2, 15))
    assert invoice.total == Money("50.00")


def test_cancel_at_period_end_stops_billing(engine, jan1):
    sub = engine.subscribe("acme", "basic", jan1)
    engine.subscriptions.cancel(sub, date(2024, 1, 20))
    assert engine.run(date(2024, 4, 1)) == []
    assert sub.status == Status.CANCELED and sub.canceled_on == date(2024, 2, 1)


def test_proration_lands_on_next_invoice(engine, jan1):
    sub = engine.subscribe("acme", "basic", jan1)
    engine.subscriptions.change(sub, date(2024, 1, 17), plan_code="pro")
    [invoice] = engine.run(date(2024, 2, 1))
    assert invoice.total == Money("64.51")


def test_coupon_repeats_for_three_periods(engine, jan1):
    coupon = Coupon("3M", percent_off=50, duration="repeating", duration_periods=3)
    engine.subscribe("acme", "basic", jan1, coupon=coupon)
    engine.run(date(2024, 5, 1))
    totals = [i.total for i in sorted(engine.invoices.values(), key=lambda i: i.id)]
    assert totals == [Money("10.00")] * 3 + [Money("20.00")] * 2


def test_taxes_follow_the_customer(engine, jan1):
    engine.subscribe("nyc", "pro", jan1)
    engine.subscribe("charity", "pro", jan1)
    ny, charity = sorted(engine.invoices.values(), key=lambda i: i.id)
    assert ny.total == Money("54.44")
    assert charity.total == Money("50.00")
