from datetime import date

import pytest

from meterly.clock import Period
from meterly.coupons import Coupon, Redemption
from meterly.customers import Customer
from meterly.invoices import InvoiceBuilder
from meterly.money import Money

from .conftest import make_taxes

JAN = Period(date(2024, 1, 1), date(2024, 2, 1))
NY = Customer("nyc", "NYC", "US-NY", payment_terms_days=15)
CA = Customer("ca", "CA", "US-CA")
DE = Customer("de", "DE", "DE", currency="EUR")


def builder(customer, currency="USD"):
    return InvoiceBuilder(customer, currency, make_taxes())


def test_exclusive_tax_line_and_due_date():
    inv = builder(NY).add("subscription", "Pro", Money("50.00"), JAN).build("INV-1", "sub_1", date(2024, 1, 1))
    assert [l.kind for l in inv.lines] == ["subscription", "tax"]
    assert inv.tax_total == Money("4.44")
    assert inv.total == Money("54.44")
    assert inv.due_on == date(2024, 1, 16)


def test_inclusive_tax_adds_no_line():
    inv = builder(DE, "EUR").add("subscription", "Basic", Money("20.00", "EUR"), JAN).build("I", "s", date(2024, 1, 1))
    assert inv.total == Money("20.00", "EUR")
    assert inv.tax_total == Money("3.19", "EUR")


def test_coupon_discounts_before_tax():
    r = Redemption(Coupon("HALF", percent_off=50))
    inv = (
        builder(NY)
        .add("subscription", "Pro", Money("50.00"), JAN)
        .apply_coupon(r, JAN)
        .build("I", "s", date(2024, 1, 1))
    )
    assert inv.discount_total == Money("25.00")
    assert inv.tax_total == Money("2.22")
    assert inv.total == Money("27.22")
    assert r.exhausted


def test_coupon_ignores_proration():
    r = Redemption(Coupon("TEN", amount_off=Money("10"), duration="forever"))
    inv = (
        builder(CA)
        .add("subscription", "Pro", Money("50.00"), JAN)
        .add("proration", "Credit", Money("-30.00"), JAN)
        .apply_coupon(r, JAN)
        .build("I", "s", date(2024, 1, 1))
    )
    assert inv.subtotal == Money("20.00")
    assert inv.total == Money("10.00")


def test_payments():
    inv = builder(CA).add("subscription", "Pro", Money("50.00"), JAN).build("I", "s", date(2024, 1, 1))
    assert inv.record_payment(Money("20"), date(2024, 1, 2)) == Money("0")
    assert inv.amount_due == Money("30.00") and inv.status == "open"
    assert inv.record_payment(Money("40"), date(2024, 1, 3)) == Money("10.00")
    assert inv.status == "paid" and inv.amount_paid == Money("50.00")
    with pytest.raises(ValueError):
        inv.void()


def test_negative_total_has_nothing_due():
    inv = builder(CA).add("proration", "Credit", Money("-12.00"), JAN).build("I", "s", date(2024, 1, 1))
    assert inv.total == Money("-12.00")
    assert inv.amount_due == Money("0")
    assert inv.tax_total == Money("0")
