from datetime import date

from billing import PatronAccount, days_late, late_fee
from circulation import LibraryCalendar, checkout, renew, return_item
from library_config import CONFIG
from tests.helpers import FILM, NOVEL, d


def branch():
    return LibraryCalendar.from_config(CONFIG)


def test_config_holidays_are_closed():
    assert branch().is_open(d("2025-12-25")) is False


def test_config_holiday_next_open_day():
    assert branch().next_open_day(d("2025-12-25")) == date(2025, 12, 27)


def test_due_date_moves_off_a_holiday():
    assert checkout(NOVEL, "p1", d("2025-12-04"), branch()).due == date(2025, 12, 27)


def test_due_date_moves_off_a_sunday():
    assert checkout(FILM, "p1", d("2025-03-09"), branch()).due == date(2025, 3, 17)


def test_renewal_due_date_moves_off_a_closed_day():
    loan = checkout(FILM, "p1", d("2025-04-03"), branch())
    assert renew(loan, d("2025-04-06"), branch()).due == date(2025, 4, 14)


def test_closed_days_do_not_count_as_late():
    loan = checkout(NOVEL, "p1", d("2025-03-03"), branch())  # due Mon 03-24
    assert days_late(loan, d("2025-04-01"), branch()) == 7


def test_christmas_example():
    loan = checkout(NOVEL, "p1", d("2025-12-04"), branch())
    assert late_fee(loan, d("2025-12-31"), branch()) == 75


def test_return_over_new_year():
    account = PatronAccount("p9")
    loan = checkout(FILM, "p9", d("2025-12-20"), branch())  # due Sat 12-27
    assert return_item(loan, d("2026-01-03"), branch(), account) == 500


def test_weekday_fee_unchanged():
    loan = checkout(NOVEL, "p1", d("2025-03-03"), branch())
    assert late_fee(loan, d("2025-03-27"), branch()) == 75


def test_cap_still_applies():
    loan = checkout(FILM, "p1", d("2025-03-05"), branch())
    assert late_fee(loan, d("2025-09-01"), branch()) == 1500
