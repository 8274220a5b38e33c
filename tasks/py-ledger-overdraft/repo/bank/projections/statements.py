"""Account statements: one line per money movement, with a running balance."""
from ..domain.money import format_cents
from ..events import Deposited, TransferReceived, TransferSent, Withdrawn

_LABELS = {
    Deposited: lambda e: "deposit",
    Withdrawn: lambda e: "withdrawal",
    TransferSent: lambda e: f"transfer to {e.to_account}",
    TransferReceived: lambda e: f"transfer from {e.from_account}",
}


def statement(store, account_id):
    """[(label, signed amount, running balance)] with amounts formatted like '-12.50'."""
    lines, balance = [], 0
    for event in store.load(account_id):
        label = _LABELS.get(type(event))
        if label is None:
            continue
        sign = -1 if isinstance(event, (Withdrawn, TransferSent)) else 1
        balance += sign * event.amount_cents
        lines.append((label(event), format_cents(sign * event.amount_cents), format_cents(balance)))
    return lines
