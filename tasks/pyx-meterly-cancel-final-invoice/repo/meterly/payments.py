"""Collecting open invoices through a payment gateway, with retries (dunning).

The first attempt is made on the invoice's due date; after a failure the collector retries
``retry_days`` days after the due date (3, 5 and 7 by default). When the last retry fails the
invoice is ``exhausted`` and the engine gives up on it.
"""

from dataclasses import dataclass
from datetime import timedelta

RETRY_DAYS = (3, 5, 7)


@dataclass(frozen=True)
class Attempt:
    invoice_id: str
    on: object
    amount: object
    succeeded: bool


class Collector:
    """Charges open invoices and remembers every attempt."""

    def __init__(self, gateway, retry_days=RETRY_DAYS):
        if list(retry_days) != sorted(set(retry_days)):
            raise ValueError("retry days must increase")
        self.gateway = gateway
        self.retry_days = tuple(retry_days)
        self.attempts = {}

    def attempts_for(self, invoice):
        return list(self.attempts.get(invoice.id, ()))

    def failures(self, invoice):
        return sum(1 for a in self.attempts.get(invoice.id, ()) if not a.succeeded)

    def next_attempt_on(self, invoice):
        """The day of the next charge attempt; None when paid, closed or out of retries."""
        if invoice.status != "open":
            return None
        failed = self.failures(invoice)
        if failed == 0:
            return invoice.due_on
        if failed > len(self.retry_days):
            return None
        return invoice.due_on + timedelta(days=self.retry_days[failed - 1])

    def exhausted(self, invoice):
        return invoice.status == "open" and self.failures(invoice) > len(self.retry_days)

    def collect(self, invoice, customer, today):
        """Charge ``invoice`` if an attempt is due by ``today``; the Attempt made, or None."""
        when = self.next_attempt_on(invoice)
        if when is None or today < when:
            return None
        amount = invoice.amount_due
        if amount.is_zero():
            invoice.record_payment(amount, today)
            return None
        succeeded = bool(self.gateway.charge(customer, amount, invoice.id))
        attempt = Attempt(invoice.id, today, amount, succeeded)
        self.attempts.setdefault(invoice.id, []).append(attempt)
        if succeeded:
            invoice.record_payment(amount, today)
        return attempt
