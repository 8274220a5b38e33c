"""Checking items out and renewing loans."""
from dataclasses import dataclass, replace
from datetime import date, timedelta

from catalog import Item

MAX_RENEWALS = 2


class LoanError(Exception):
    """A loan cannot be made or renewed."""


@dataclass(frozen=True)
class Loan:
    item: Item
    patron_id: str
    checked_out: date
    due: date
    renewals: int = 0


def _due_date(start, item, calendar):
    """The due date of a loan period starting at ``start``.

    A due date that falls on a closed day moves to the next open day (board policy).
    """
    return start + timedelta(days=item.category.loan_days)


def checkout(item, patron_id, day, calendar):
    """Lend ``item`` to ``patron_id`` on ``day``."""
    if not item.category.loanable:
        raise LoanError(f"{item.title!r} is for reference only")
    return Loan(item, patron_id, day, _due_date(day, item, calendar))


def renew(loan, day, calendar):
    """Renew ``loan`` on ``day``: a new full loan period starting from ``day``."""
    if loan.renewals >= MAX_RENEWALS:
        raise LoanError(f"{loan.item.title!r} has been renewed {MAX_RENEWALS} times already")
    if day > loan.due:
        raise LoanError(f"{loan.item.title!r} is overdue and cannot be renewed")
    return replace(loan, due=_due_date(day, loan.item, calendar), renewals=loan.renewals + 1)
