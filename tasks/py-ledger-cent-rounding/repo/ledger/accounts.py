"""Accounts and their balances."""
from dataclasses import dataclass, field

#: Account kinds whose balance is naturally a debit balance.
DEBIT_NORMAL = {"asset", "expense"}
KINDS = DEBIT_NORMAL | {"liability", "equity", "income"}


@dataclass
class Account:
    """An account; postings are signed cents, debits positive and credits negative."""

    name: str
    kind: str
    postings: list = field(default_factory=list)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown account kind {self.kind!r}")

    def post(self, cents):
        self.postings.append(cents)

    def debit_total(self):
        return sum(c for c in self.postings if c > 0)

    def credit_total(self):
        return -sum(c for c in self.postings if c < 0)

    def balance(self):
        """Balance in cents, positive when on the account's normal side."""
        net = sum(self.postings)
        return net if self.kind in DEBIT_NORMAL else -net
