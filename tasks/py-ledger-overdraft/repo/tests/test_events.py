import pytest

from bank import BankService
from bank.events import AccountOpened, Deposited, TransferSent, decode, encode
from bank.store import EventStore


def test_encode_decode_round_trip():
    event = TransferSent("acc-1", 500, "acc-2", "gift")
    assert encode(event) == {
        "type": "TransferSent", "account_id": "acc-1", "amount_cents": 500,
        "to_account": "acc-2", "reference": "gift",
    }
    assert decode(encode(event)) == event


def test_decode_rejects_unknown_fields():
    with pytest.raises(ValueError, match="unknown fields"):
        decode({"type": "Deposited", "account_id": "a", "amount_cents": 1, "memo": "x"})


def test_decode_rejects_unknown_type():
    with pytest.raises(ValueError):
        decode({"type": "Teleported", "account_id": "a"})


def test_jsonl_round_trip():
    bank = BankService()
    bank.open_account("a", "Ada")
    bank.deposit("a", 300)
    copy = EventStore.import_jsonl(bank.store.export_jsonl())
    assert copy.load("a") == [AccountOpened("a", "Ada"), Deposited("a", 300)]


def test_import_old_export():
    old = '{"stream": "a", "version": 1, "event": {"type": "AccountOpened", "account_id": "a", "owner": "Ada"}}\n'
    assert BankService(EventStore.import_jsonl(old)).balance("a") == 0
