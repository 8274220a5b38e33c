from bank import BankService
from bank.projections import BalanceProjection, statement


def make_bank():
    bank = BankService()
    bank.open_account("a", "Ada")
    bank.open_account("b", "Bob")
    bank.deposit("a", 5_000)
    bank.transfer("a", "b", 1_250, "lunch")
    bank.withdraw("b", 250)
    return bank


def test_balances():
    projection = BalanceProjection.from_store(make_bank().store)
    assert projection.balances == {"a": 3_750, "b": 1_000}
    assert projection.total() == 4_750
    assert projection.overdrawn() == []


def test_catch_up_is_incremental():
    bank = make_bank()
    projection = BalanceProjection.from_store(bank.store)
    bank.deposit("b", 1)
    projection.catch_up(bank.store)
    projection.catch_up(bank.store)
    assert projection.balance("b") == 1_001


def test_statement():
    assert statement(make_bank().store, "b") == [
        ("transfer from a", "12.50", "12.50"),
        ("withdrawal", "-2.50", "10.00"),
    ]
