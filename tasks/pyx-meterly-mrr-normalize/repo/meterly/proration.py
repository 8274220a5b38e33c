"""Proration of mid-period changes.

A change on day ``on`` of a period credits the unused part of the old price and charges the
same part of the new price, both by whole days (``on`` counts as used by the new price). The two
lines go on the subscription's next invoice.
"""

from decimal import Decimal

from .errors import InvalidTransition
from .invoices import InvoiceLine


def unused_fraction(period, on):
    """Share of ``period`` left on day ``on`` (``on`` included), as a Decimal in [0, 1]."""
    return Decimal(period.days_from(on)) / Decimal(period.days)


def prorate(amount, period, on):
    """The part of a full-period ``amount`` that covers the rest of ``period`` from ``on``."""
    return (amount * unused_fraction(period, on)).rounded()


def change_lines(old_plan, old_quantity, new_plan, new_quantity, period, on):
    """Credit and charge lines for moving from one plan/quantity to another on day ``on``."""
    if old_plan.months != new_plan.months:
        raise InvalidTransition(
            f"cannot prorate from a {old_plan.interval}ly plan to a {new_plan.interval}ly plan; "
            "cancel and subscribe again"
        )
    if old_plan.currency != new_plan.currency:
        raise InvalidTransition("cannot change a subscription to a plan in another currency")
    lines = []
    credit = prorate(old_plan.recurring_amount(old_quantity), period, on)
    charge = prorate(new_plan.recurring_amount(new_quantity), period, on)
    if not credit.is_zero():
        lines.append(InvoiceLine("proration", f"Unused time on {old_plan.name}", -credit, period))
    if not charge.is_zero():
        lines.append(InvoiceLine("proration", f"Remaining time on {new_plan.name}", charge, period))
    return lines
