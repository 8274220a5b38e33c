"""Subscriptions and their life cycle.

::

    trialing --> active <--> past_due
        \\          |          /
         +----> canceled <---+

A subscription always has a current ``period``. Its ``anchor_day`` is the day of month its
periods start on (clamped in short months), fixed when the first paid period starts.
"""

from dataclasses import dataclass, field
from datetime import timedelta
from enum import Enum

from .clock import Period, billing_period
from .coupons import Redemption
from .errors import InvalidTransition
from .proration import change_lines


class Status(str, Enum):
    TRIALING = "trialing"
    ACTIVE = "active"
    PAST_DUE = "past_due"
    CANCELED = "canceled"


ALLOWED = {
    Status.TRIALING: {Status.ACTIVE, Status.CANCELED},
    Status.ACTIVE: {Status.PAST_DUE, Status.CANCELED},
    Status.PAST_DUE: {Status.ACTIVE, Status.CANCELED},
    Status.CANCELED: set(),
}


@dataclass
class Subscription:
    id: str
    customer_id: str
    plan_code: str
    period: Period
    anchor_day: int
    started_on: object
    quantity: int = 1
    status: Status = Status.ACTIVE
    trial_end: object = None
    cancel_at_period_end: bool = False
    canceled_on: object = None
    redemption: Redemption | None = None
    pending_lines: list = field(default_factory=list)

    @property
    def is_live(self):
        """Still billed: not canceled."""
        return self.status != Status.CANCELED


class SubscriptionService:
    """Creates subscriptions and applies changes to them."""

    def __init__(self, catalog, customers):
        self.catalog = catalog
        self.customers = customers
        self.subscriptions = {}
        self._next_id = 1

    def _new_id(self):
        sub_id = f"sub_{self._next_id:04d}"
        self._next_id += 1
        return sub_id

    def create(self, customer_id, plan_code, start, quantity=1, coupon=None, trial_days=None):
        customer = self.customers.get(customer_id)
        plan = self.catalog.get(plan_code)
        if plan.currency != customer.currency:
            raise InvalidTransition(
                f"customer {customer.id} pays in {customer.currency}, plan {plan.code} is in {plan.currency}"
            )
        if quantity < 1:
            raise ValueError("quantity must be at least 1")
        trial = plan.trial_days if trial_days is None else trial_days
        if trial > 0:
            trial_end = start + timedelta(days=trial)
            period = Period(start, trial_end)
            status = Status.TRIALING
            anchor_day = trial_end.day
        else:
            trial_end = None
            period = billing_period(start, plan.months, start.day)
            status = Status.ACTIVE
            anchor_day = start.day
        sub = Subscription(
            id=self._new_id(),
            customer_id=customer_id,
            plan_code=plan_code,
            period=period,
            anchor_day=anchor_day,
            started_on=start,
            quantity=quantity,
            status=status,
            trial_end=trial_end,
            redemption=Redemption(coupon) if coupon is not None else None,
        )
        self.subscriptions[sub.id] = sub
        return sub

    def get(self, sub_id):
        return self.subscriptions[sub_id]

    def transition(self, sub, status):
        if status not in ALLOWED[sub.status]:
            raise InvalidTransition(f"{sub.id}: cannot go from {sub.status.value} to {status.value}")
        sub.status = status

    def cancel(self, sub, on, at_period_end=True):
        """Cancel now, or at the end of the current period (the default)."""
        if not sub.is_live:
            raise InvalidTransition(f"{sub.id} is already canceled")
        if at_period_end and sub.status != Status.TRIALING:
            sub.cancel_at_period_end = True
            return sub
        self.transition(sub, Status.CANCELED)
        sub.canceled_on = on
        return sub

    def change(self, sub, on, plan_code=None, quantity=None):
        """Move to another plan and/or quantity on day ``on``, prorating the current period."""
        if not sub.is_live:
            raise InvalidTransition(f"{sub.id} is canceled")
        old_plan = self.catalog.get(sub.plan_code)
        new_plan = self.catalog.get(plan_code or sub.plan_code)
        new_quantity = sub.quantity if quantity is None else quantity
        if new_quantity < 1:
            raise ValueError("quantity must be at least 1")
        if new_plan.code == old_plan.code and new_quantity == sub.quantity:
            return sub
        if sub.status != Status.TRIALING:
            sub.pending_lines.extend(
                change_lines(old_plan, sub.quantity, new_plan, new_quantity, sub.period, on)
            )
        sub.plan_code = new_plan.code
        sub.quantity = new_quantity
        return sub
