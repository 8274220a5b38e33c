import pytest

from bank import BankService
from bank.domain import DomainError, InsufficientFunds
from bank import events
from bank.events import AccountOpened, decode, encode
from bank.projections import BalanceProjection, statement
from bank.store import EventStore


@pytest.fixture
def bank():
    service = BankService()
    service.open_account("a", "Ada", overdraft_limit_cents=5_000)
    service.open_account("b", "Bob")
    service.deposit("a", 1_000)
    return service


def test_withdraw_into_overdraft(bank):
    bank.withdraw("a", 4_000)
    assert bank.balance("a") == -3_000


def test_withdraw_exactly_to_the_limit(bank):
    bank.withdraw("a", 6_000)
    assert bank.balance("a") == -5_000


def test_beyond_the_limit_refused(bank):
    with pytest.raises(InsufficientFunds):
        bank.withdraw("a", 6_001)
    assert bank.balance("a") == 1_000


def test_transfer_into_overdraft(bank):
    bank.transfer("a", "b", 3_500)
    assert (bank.balance("a"), bank.balance("b")) == (-2_500, 3_500)


def test_default_limit_is_zero(bank):
    bank.deposit("b", 100)
    with pytest.raises(InsufficientFunds):
        bank.withdraw("b", 101)


def test_opened_event_records_limit(bank):
    assert bank.store.load("a")[0] == AccountOpened("a", "Ada", 5_000)


def test_raise_limit_later(bank):
    bank.set_overdraft_limit("b", 2_000)
    bank.withdraw("b", 2_000)
    assert bank.balance("b") == -2_000


def test_limit_change_is_an_event(bank):
    bank.set_overdraft_limit("b", 700)
    assert bank.store.load("b")[-1] == events.OverdraftLimitChanged("b", 700)


def test_lowering_below_debt_blocks_payouts(bank):
    bank.withdraw("a", 3_000)
    bank.set_overdraft_limit("a", 0)
    with pytest.raises(InsufficientFunds):
        bank.withdraw("a", 1)
    assert bank.balance("a") == -2_000


def test_negative_limit_rejected(bank):
    with pytest.raises(DomainError):
        bank.set_overdraft_limit("b", -1)
    with pytest.raises(DomainError):
        bank.open_account("c", "Cy", overdraft_limit_cents=-5)


def test_limit_on_closed_account_refused(bank):
    bank.close_account("b")
    with pytest.raises(DomainError):
        bank.set_overdraft_limit("b", 100)


def test_codec_round_trip_new_event():
    event = events.OverdraftLimitChanged("a", 1_500)
    assert encode(event) == {"type": "OverdraftLimitChanged", "account_id": "a", "limit_cents": 1_500}
    assert decode(encode(event)) == event


def test_old_opened_payload_decodes_with_zero_limit():
    assert decode({"type": "AccountOpened", "account_id": "a", "owner": "Ada"}).overdraft_limit_cents == 0


def test_export_import_keeps_limits(bank):
    bank.set_overdraft_limit("b", 300)
    copy = BankService(EventStore.import_jsonl(bank.store.export_jsonl()))
    copy.withdraw("b", 300)
    assert copy.balance("b") == -300


def test_projection_available(bank):
    bank.withdraw("a", 2_000)
    projection = BalanceProjection.from_store(bank.store)
    assert projection.available("a") == 4_000


def test_projection_follows_limit_changes(bank):
    projection = BalanceProjection.from_store(bank.store)
    bank.set_overdraft_limit("b", 900)
    projection.catch_up(bank.store)
    assert projection.available("b") == 900


def test_overdrawn_accounts_listed(bank):
    bank.withdraw("a", 1_500)
    assert BalanceProjection.from_store(bank.store).overdrawn() == ["a"]


def test_statement_skips_limit_changes(bank):
    bank.set_overdraft_limit("a", 100)
    assert statement(bank.store, "a") == [("deposit", "10.00", "10.00")]
