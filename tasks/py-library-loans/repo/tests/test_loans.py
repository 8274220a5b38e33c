import pytest

from circulation import LibraryCalendar, LoanError, checkout, renew
from tests.helpers import ATLAS, FILM, NOVEL, d, sundays_closed


def test_book_loan_is_three_weeks():
    loan = checkout(NOVEL, "p1", d("2025-03-03"), sundays_closed())
    assert loan.due == d("2025-03-24")


def test_dvd_loan_is_one_week():
    assert checkout(FILM, "p1", d("2025-03-05"), sundays_closed()).due == d("2025-03-12")


def test_reference_not_loanable():
    with pytest.raises(LoanError):
        checkout(ATLAS, "p1", d("2025-03-03"), sundays_closed())


def test_renew_twice_only():
    cal = sundays_closed()
    loan = checkout(FILM, "p1", d("2025-03-05"), cal)
    loan = renew(loan, d("2025-03-10"), cal)
    loan = renew(loan, d("2025-03-15"), cal)
    assert loan.due == d("2025-03-22")
    with pytest.raises(LoanError):
        renew(loan, d("2025-03-20"), cal)


def test_calendar_open_days():
    cal = LibraryCalendar(closed_weekdays=[6], holidays=[d("2025-03-12")])
    assert cal.is_open(d("2025-03-11"))
    assert not cal.is_open(d("2025-03-12"))
    assert not cal.is_open(d("2025-03-16"))
    assert cal.next_open_day(d("2025-03-16")) == d("2025-03-17")
    assert cal.open_days_between(d("2025-03-10"), d("2025-03-17")) == 5
