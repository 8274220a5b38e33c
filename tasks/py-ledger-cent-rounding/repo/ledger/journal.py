"""The journal: balanced transactions posted to accounts."""
from .accounts import Account
from .money import to_cents


class UnbalancedEntryError(ValueError):
    """Debits and credits of a transaction differ."""


class Journal:
    """Holds the chart of accounts and the list of posted transactions."""

    def __init__(self):
        self.accounts = {}
        self.transactions = []

    def open_account(self, name, kind):
        if name in self.accounts:
            raise ValueError(f"account {name!r} already exists")
        account = self.accounts[name] = Account(name, kind)
        return account

    def post(self, date, description, debits, credits):
        """Record a transaction; ``debits``/``credits`` map account names to amounts.

        Amounts are converted with :func:`ledger.money.to_cents`. Raises
        :class:`UnbalancedEntryError` when the two sides differ and KeyError for unknown accounts.
        """
        lines = [(name, to_cents(amount)) for name, amount in debits.items()]
        lines += [(name, -to_cents(amount)) for name, amount in credits.items()]
        for name, _ in lines:
            if name not in self.accounts:
                raise KeyError(f"unknown account {name!r}")
        if sum(cents for _, cents in lines) != 0:
            raise UnbalancedEntryError(f"{description}: debits and credits differ")
        for name, cents in lines:
            self.accounts[name].post(cents)
        self.transactions.append((date, description, lines))
        return len(self.transactions)
