"""Application service: load the aggregate, run the command, append the resulting events."""
from .domain import Account
from .store import EventStore, StreamNotFound


class BankService:
    def __init__(self, store=None):
        self.store = store if store is not None else EventStore()

    def _load(self, account_id):
        try:
            events = self.store.load(account_id)
        except StreamNotFound:
            events = []
        return Account.replay(account_id, events)

    def _commit(self, account, events):
        self.store.append(account.id, events, expected_version=account.version)
        for event in events:
            account.apply(event)
        return account

    def open_account(self, account_id, owner):
        account = self._load(account_id)
        return self._commit(account, account.open(owner))

    def deposit(self, account_id, amount_cents):
        account = self._load(account_id)
        return self._commit(account, account.deposit(amount_cents))

    def withdraw(self, account_id, amount_cents):
        account = self._load(account_id)
        return self._commit(account, account.withdraw(amount_cents))

    def transfer(self, from_id, to_id, amount_cents, reference=""):
        """Move money between accounts. Both sides are validated before anything is appended."""
        source, target = self._load(from_id), self._load(to_id)
        sent = source.send(amount_cents, to_id, reference)
        received = target.receive(amount_cents, from_id, reference)
        self._commit(source, sent)
        self._commit(target, received)

    def close_account(self, account_id):
        account = self._load(account_id)
        return self._commit(account, account.close())

    def balance(self, account_id):
        """Current balance in cents, rebuilt from the account's events."""
        account = self._load(account_id)
        if not account.opened:
            raise KeyError(account_id)
        return account.balance_cents
