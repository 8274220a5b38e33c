"""What an envelope carries into the next month.

Policy:

- Overspending is never forgiven: a negative closing balance (debt) is always carried,
  whatever the envelope's settings, and must be repaid from the next month's income
  before the envelope is funded as usual.
- A positive balance is carried only by ``carry_over`` envelopes, up to their ``cap``.
  Other envelopes return it (it becomes unassigned money in reports).
"""
from .money import ZERO


def carry(envelope, closing_balance):
    """The opening balance of ``envelope`` next month, given this month's closing balance."""
    if not envelope.carry_over:
        return ZERO
    if envelope.cap is not None:
        return min(closing_balance, envelope.cap)
    return closing_balance
