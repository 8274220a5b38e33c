"""Returning items: closes the loan and bills any late fee to the patron."""
from billing import late_fee


def return_item(loan, day, calendar, account):
    """Check ``loan`` in on ``day``; charge the late fee (if any) to ``account``. Returns the fee."""
    fee = late_fee(loan, day, calendar)
    if fee:
        account.charge(fee, f"late: {loan.item.title}")
    return fee
