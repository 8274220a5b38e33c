"""Domain events. Amounts are integer cents; events are immutable facts, never edited."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    account_id: str


@dataclass(frozen=True)
class AccountOpened(Event):
    owner: str


@dataclass(frozen=True)
class Deposited(Event):
    amount_cents: int


@dataclass(frozen=True)
class Withdrawn(Event):
    amount_cents: int


@dataclass(frozen=True)
class TransferSent(Event):
    amount_cents: int
    to_account: str
    reference: str = ""


@dataclass(frozen=True)
class TransferReceived(Event):
    amount_cents: int
    from_account: str
    reference: str = ""


@dataclass(frozen=True)
class AccountClosed(Event):
    pass
