import pytest

from bank import BankService
from bank.domain import AccountClosedError, AccountExistsError, DomainError, InsufficientFunds
from bank.store import ConcurrencyError


@pytest.fixture
def bank():
    service = BankService()
    service.open_account("acc-1", "Ada")
    service.open_account("acc-2", "Grace")
    service.deposit("acc-1", 10_000)
    return service


def test_balance_after_deposit_and_withdrawal(bank):
    bank.withdraw("acc-1", 2_500)
    assert bank.balance("acc-1") == 7_500


def test_cannot_overdraw(bank):
    with pytest.raises(InsufficientFunds):
        bank.withdraw("acc-1", 10_001)
    assert bank.balance("acc-1") == 10_000


def test_transfer_moves_money(bank):
    bank.transfer("acc-1", "acc-2", 4_000, "rent")
    assert (bank.balance("acc-1"), bank.balance("acc-2")) == (6_000, 4_000)


def test_failed_transfer_appends_nothing(bank):
    with pytest.raises(InsufficientFunds):
        bank.transfer("acc-2", "acc-1", 1)
    assert bank.store.version("acc-2") == 1


def test_transfer_to_unknown_account_refused(bank):
    with pytest.raises(DomainError):
        bank.transfer("acc-1", "acc-9", 100)
    assert bank.balance("acc-1") == 10_000


def test_open_twice(bank):
    with pytest.raises(AccountExistsError):
        bank.open_account("acc-1", "Eve")


def test_closed_account_refuses_deposits(bank):
    bank.close_account("acc-2")
    with pytest.raises(AccountClosedError):
        bank.deposit("acc-2", 100)


def test_close_requires_zero_balance(bank):
    with pytest.raises(DomainError):
        bank.close_account("acc-1")


def test_positive_amounts_only(bank):
    with pytest.raises(DomainError):
        bank.deposit("acc-1", 0)


def test_optimistic_concurrency(bank):
    with pytest.raises(ConcurrencyError):
        bank.store.append("acc-1", [], expected_version=0)
