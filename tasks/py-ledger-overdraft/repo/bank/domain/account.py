"""The Account aggregate.

Command methods check the rules against the current state and return the events that should
happen; they never change state themselves. `apply` is the only place state changes, so that
replaying stored events rebuilds exactly the same state.
"""
from ..events import (
    AccountClosed,
    AccountOpened,
    Deposited,
    TransferReceived,
    TransferSent,
    Withdrawn,
)
from .errors import AccountClosedError, AccountExistsError, DomainError, InsufficientFunds


def _positive(amount_cents):
    if not isinstance(amount_cents, int) or amount_cents <= 0:
        raise DomainError(f"amount must be a positive number of cents, got {amount_cents!r}")


class Account:
    def __init__(self, account_id):
        self.id = account_id
        self.owner = None
        self.balance_cents = 0
        self.opened = False
        self.closed = False
        self.version = 0

    @classmethod
    def replay(cls, account_id, events):
        account = cls(account_id)
        for event in events:
            account.apply(event)
        return account

    # -- state changes -------------------------------------------------------------------

    def apply(self, event):
        if isinstance(event, AccountOpened):
            self.opened, self.owner = True, event.owner
        elif isinstance(event, (Deposited, TransferReceived)):
            self.balance_cents += event.amount_cents
        elif isinstance(event, (Withdrawn, TransferSent)):
            self.balance_cents -= event.amount_cents
        elif isinstance(event, AccountClosed):
            self.closed = True
        else:
            raise TypeError(f"Account cannot apply {type(event).__name__}")
        self.version += 1

    # -- commands ------------------------------------------------------------------------

    def _require_active(self):
        if not self.opened:
            raise DomainError(f"account {self.id} does not exist")
        if self.closed:
            raise AccountClosedError(f"account {self.id} is closed")

    def _require_funds(self, amount_cents):
        if amount_cents > self.balance_cents:
            raise InsufficientFunds(
                f"account {self.id} has {self.balance_cents} cents, cannot pay out {amount_cents}"
            )

    def open(self, owner):
        if self.opened:
            raise AccountExistsError(f"account {self.id} already exists")
        if not owner.strip():
            raise DomainError("owner must not be empty")
        return [AccountOpened(self.id, owner.strip())]

    def deposit(self, amount_cents):
        self._require_active()
        _positive(amount_cents)
        return [Deposited(self.id, amount_cents)]

    def withdraw(self, amount_cents):
        self._require_active()
        _positive(amount_cents)
        self._require_funds(amount_cents)
        return [Withdrawn(self.id, amount_cents)]

    def send(self, amount_cents, to_account, reference=""):
        self._require_active()
        _positive(amount_cents)
        if to_account == self.id:
            raise DomainError("cannot transfer to the same account")
        self._require_funds(amount_cents)
        return [TransferSent(self.id, amount_cents, to_account, reference)]

    def receive(self, amount_cents, from_account, reference=""):
        self._require_active()
        return [TransferReceived(self.id, amount_cents, from_account, reference)]

    def close(self):
        self._require_active()
        if self.balance_cents != 0:
            raise DomainError(f"account {self.id} must have a zero balance to close")
        return [AccountClosed(self.id)]
