"""Patron accounts: charges, payments and borrowing blocks."""


class PatronAccount:
    """Charges and payments of one patron, in cents."""

    def __init__(self, patron_id, block_threshold=1000):
        self.patron_id = patron_id
        self.block_threshold = block_threshold
        self.entries = []

    def charge(self, cents, note):
        self.entries.append((cents, note))

    def pay(self, cents):
        if cents <= 0:
            raise ValueError("payment must be positive")
        self.entries.append((-cents, "payment"))

    @property
    def balance(self):
        """What the patron owes (negative: credit)."""
        return sum(cents for cents, _ in self.entries)

    @property
    def blocked(self):
        """Patrons owing the threshold or more may not borrow."""
        return self.balance >= self.block_threshold
