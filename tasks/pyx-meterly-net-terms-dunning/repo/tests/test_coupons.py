from datetime import date

import pytest

from meterly.clock import Period
from meterly.coupons import Coupon, Redemption
from meterly.errors import InvalidCoupon
from meterly.money import Money


def month(m):
    return Period(date(2024, m, 1), date(2024, m + 1, 1))


def test_percent_and_amount_discounts():
    assert Coupon("HALF", percent_off=50).discount_on(Money("19.99")) == Money("10.00")
    assert Coupon("TEN", amount_off=Money("10")).discount_on(Money("25")) == Money("10")
    assert Coupon("TEN", amount_off=Money("10")).discount_on(Money("4")) == Money("4")
    assert Coupon("TEN", amount_off=Money("10")).discount_on(Money("-4")) == Money("0")


def test_coupon_validation():
    with pytest.raises(InvalidCoupon):
        Coupon("BAD")
    with pytest.raises(InvalidCoupon):
        Coupon("BAD", percent_off=120)
    with pytest.raises(InvalidCoupon):
        Coupon("BAD", percent_off=10, duration="repeating")
    with pytest.raises(InvalidCoupon):
        Coupon("BAD", percent_off=10, duration_periods=2)


def test_amount_coupon_currency():
    with pytest.raises(InvalidCoupon):
        Coupon("TEN", amount_off=Money("10", "EUR")).discount_on(Money("25"))


def test_repeating_redemption_counts_periods():
    r = Redemption(Coupon("3M", percent_off=20, duration="repeating", duration_periods=3))
    for m in (1, 2, 3):
        assert r.applies_to(month(m))
        r.mark(month(m))
    assert r.exhausted
    assert not r.applies_to(month(4))
    assert r.applies_to(month(2))


def test_forever_never_runs_out():
    r = Redemption(Coupon("LOYAL", percent_off=5, duration="forever"))
    for m in range(1, 11):
        r.mark(month(m))
    assert r.applies_to(month(11)) and not r.exhausted
