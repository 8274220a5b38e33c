"""Revenue reports over an engine's subscriptions and invoices.

* ``mrr``: monthly recurring revenue per currency on a day: the base price of every active or
  past-due subscription spread over one month (annual plans count a twelfth), after coupons that
  still apply; trials and canceled subscriptions count nothing. Usage is not recurring.
* ``revenue_by_plan``: what was actually paid, per plan code.
* ``aging``: open balances by how long they are overdue.
* ``churn``: subscriptions lost over a period, as a share of those live at its start.
"""

from collections import defaultdict
from decimal import Decimal

from .money import Money
from .subscriptions import Status

AGING_BUCKETS = (("current", 0), ("1-30", 30), ("31-60", 60), ("61-90", 90), ("90+", None))


def _monthly_discount(sub, plan, monthly):
    """The part of ``monthly`` a coupon that still applies takes off."""
    redemption = sub.redemption
    if redemption is None or redemption.exhausted:
        return Money.zero(monthly.currency)
    coupon = redemption.coupon
    if coupon.percent_off is not None:
        return monthly * (coupon.percent_off / Decimal(100))
    return min(coupon.amount_off * (Decimal(1) / Decimal(plan.months)), monthly)


def mrr(engine, on=None):
    """Monthly recurring revenue per currency, rounded to cents."""
    result = {}
    for sub in engine.subscriptions.subscriptions.values():
        if sub.status not in (Status.ACTIVE, Status.PAST_DUE):
            continue
        if on is not None and sub.started_on > on:
            continue
        plan = engine.catalog.get(sub.plan_code)
        monthly = plan.monthly_amount(sub.quantity)
        monthly = monthly - _monthly_discount(sub, plan, monthly)
        result[plan.currency] = result.get(plan.currency, Money.zero(plan.currency)) + monthly
    return {currency: amount.rounded() for currency, amount in sorted(result.items())}


def revenue_by_plan(engine, period=None):
    """Amount paid per plan code (payments inside ``period`` only, when given)."""
    revenue = defaultdict(lambda: None)
    for invoice in engine.invoices.values():
        sub = engine.subscriptions.get(invoice.subscription_id)
        for on, amount in invoice.payments:
            if period is not None and not period.contains(on):
                continue
            current = revenue[sub.plan_code]
            revenue[sub.plan_code] = amount if current is None else current + amount
    return dict(sorted(revenue.items()))


def aging(engine, today):
    """Open balances per currency and bucket: ``{"USD": {"current": Money, "1-30": ...}}``."""
    report = {}
    for invoice in engine.invoices.values():
        if invoice.status != "open":
            continue
        due = invoice.amount_due
        if due.is_zero():
            continue
        overdue = (today - invoice.due_on).days
        buckets = report.setdefault(
            invoice.currency, {name: Money.zero(invoice.currency) for name, _ in AGING_BUCKETS}
        )
        for name, limit in AGING_BUCKETS:
            if limit is None or overdue <= limit:
                buckets[name] = buckets[name] + due
                break
    return report


def churn(engine, period):
    """Share of subscriptions live at ``period.start`` that were canceled during ``period``."""
    live_at_start = [
        s
        for s in engine.subscriptions.subscriptions.values()
        if s.started_on < period.start and (s.canceled_on is None or s.canceled_on >= period.start)
    ]
    if not live_at_start:
        return Decimal(0)
    lost = sum(1 for s in live_at_start if s.canceled_on is not None and period.contains(s.canceled_on))
    return (Decimal(lost) / Decimal(len(live_at_start))).quantize(Decimal("0.0001"))
