"""Coupons and their redemptions.

A coupon takes either a percentage or a fixed amount off the discountable part of an invoice
(subscription and usage charges; never proration or tax). Its duration says for how many billing
periods it applies: ``once`` (the first period billed), ``repeating`` (``duration_periods``
periods) or ``forever``.
"""

from dataclasses import dataclass, field
from decimal import Decimal

from .errors import InvalidCoupon
from .money import Money, to_decimal

DURATIONS = ("once", "repeating", "forever")


@dataclass(frozen=True)
class Coupon:
    code: str
    percent_off: Decimal | None = None
    amount_off: Money | None = None
    duration: str = "once"
    duration_periods: int | None = None

    def __post_init__(self):
        if (self.percent_off is None) == (self.amount_off is None):
            raise InvalidCoupon(f"coupon {self.code!r} needs exactly one of percent_off or amount_off")
        if self.percent_off is not None:
            object.__setattr__(self, "percent_off", to_decimal(self.percent_off))
            if not Decimal(0) < self.percent_off <= Decimal(100):
                raise InvalidCoupon(f"coupon {self.code!r}: percent_off must be in (0, 100]")
        if self.duration not in DURATIONS:
            raise InvalidCoupon(f"coupon {self.code!r}: unknown duration {self.duration!r}")
        if (self.duration == "repeating") != (self.duration_periods is not None):
            raise InvalidCoupon(f"coupon {self.code!r}: duration_periods goes with a repeating duration")
        if self.duration_periods is not None and self.duration_periods < 1:
            raise InvalidCoupon(f"coupon {self.code!r}: duration_periods must be at least 1")

    @property
    def max_periods(self):
        """How many periods the coupon applies to; None for forever."""
        if self.duration == "once":
            return 1
        if self.duration == "repeating":
            return self.duration_periods
        return None

    def discount_on(self, amount):
        """The discount on a discountable ``amount`` (never more than the amount itself)."""
        if amount.is_negative() or amount.is_zero():
            return Money.zero(amount.currency)
        if self.percent_off is not None:
            return (amount * (self.percent_off / Decimal(100))).rounded()
        if self.amount_off.currency != amount.currency:
            raise InvalidCoupon(
                f"coupon {self.code!r} is in {self.amount_off.currency}, the invoice in {amount.currency}"
            )
        return min(self.amount_off, amount)


@dataclass
class Redemption:
    """A coupon attached to one subscription and the billing periods it was applied to."""

    coupon: Coupon
    periods: list = field(default_factory=list)

    def applies_to(self, period):
        """True when the coupon still covers ``period`` (a period already discounted stays covered)."""
        if period.start in self.periods:
            return True
        limit = self.coupon.max_periods
        return limit is None or len(self.periods) < limit

    def mark(self, period):
        if period.start not in self.periods:
            self.periods.append(period.start)

    @property
    def exhausted(self):
        limit = self.coupon.max_periods
        return limit is not None and len(self.periods) >= limit
