from billing import PatronAccount, late_fee
from circulation import checkout, return_item
from tests.helpers import FILM, NOVEL, d, sundays_closed


def test_on_time_is_free():
    cal = sundays_closed()
    loan = checkout(NOVEL, "p1", d("2025-03-03"), cal)
    assert late_fee(loan, d("2025-03-24"), cal) == 0


def test_weekday_lateness():
    cal = sundays_closed()
    loan = checkout(NOVEL, "p1", d("2025-03-03"), cal)  # due Mon 03-24
    assert late_fee(loan, d("2025-03-27"), cal) == 75


def test_fee_is_capped():
    cal = sundays_closed()
    loan = checkout(FILM, "p1", d("2025-03-05"), cal)
    assert late_fee(loan, d("2025-06-01"), cal) == 1500


def test_return_charges_account_and_blocks():
    cal = sundays_closed()
    account = PatronAccount("p1", block_threshold=300)
    loan = checkout(FILM, "p1", d("2025-03-05"), cal)  # due Wed 03-12
    assert return_item(loan, d("2025-03-15"), cal, account) == 300
    assert account.balance == 300 and account.blocked
    account.pay(100)
    assert not account.blocked
