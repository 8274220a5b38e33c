"""Balances of every account, for the back-office overview."""
from ..events import AccountClosed, AccountOpened, Deposited, TransferReceived, TransferSent, Withdrawn


class BalanceProjection:
    def __init__(self):
        self.balances = {}
        self.owners = {}
        self.closed = set()
        self.position = 0  # last store position folded in

    @classmethod
    def from_store(cls, store):
        projection = cls()
        projection.catch_up(store)
        return projection

    def catch_up(self, store):
        """Fold in the events appended since the last call."""
        for stored in store.all():
            if stored.position > self.position:
                self.handle(stored.event)
                self.position = stored.position

    def handle(self, event):
        account = event.account_id
        if isinstance(event, AccountOpened):
            self.balances[account] = 0
            self.owners[account] = event.owner
        elif isinstance(event, (Deposited, TransferReceived)):
            self.balances[account] += event.amount_cents
        elif isinstance(event, (Withdrawn, TransferSent)):
            self.balances[account] -= event.amount_cents
        elif isinstance(event, AccountClosed):
            self.closed.add(account)

    def balance(self, account_id):
        return self.balances[account_id]

    def total(self):
        """Sum over open accounts (transfers cancel out)."""
        return sum(b for a, b in self.balances.items() if a not in self.closed)

    def overdrawn(self):
        """Accounts with a negative balance, sorted."""
        return sorted(a for a, b in self.balances.items() if b < 0)
