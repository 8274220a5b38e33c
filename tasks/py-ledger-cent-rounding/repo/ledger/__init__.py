"""A double-entry bookkeeping ledger with integer-cent arithmetic."""
from .accounts import Account
from .journal import Journal, UnbalancedEntryError
from .money import format_cents, to_cents
from .report import render_trial_balance, trial_balance

__all__ = [
    "Account", "Journal", "UnbalancedEntryError", "format_cents", "to_cents",
    "render_trial_balance", "trial_balance",
]
