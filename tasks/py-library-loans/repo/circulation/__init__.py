"""Circulation: the opening calendar, loans and returns."""
from .calendar import LibraryCalendar
from .loans import Loan, LoanError, checkout, renew
from .returns import return_item

__all__ = ["LibraryCalendar", "Loan", "LoanError", "checkout", "renew", "return_item"]
