"""An event-sourced bank ledger.

Every change to an account is an immutable event appended to that account's stream in an
event store; account state and reports are rebuilt by replaying events.

    events/       event types and their JSON codec
    store/        the append-only event store (optimistic concurrency per stream)
    domain/       the Account aggregate: business rules that decide which events happen
    projections/  read models rebuilt from the event log (balances, statements)
    service.py    the application service tying them together
"""
from .service import BankService

__all__ = ["BankService"]
