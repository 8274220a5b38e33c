"""The Account aggregate and its business rules."""
from .account import Account
from .errors import AccountClosedError, AccountExistsError, DomainError, InsufficientFunds
from .money import format_cents, parse_amount

__all__ = [
    "Account", "AccountClosedError", "AccountExistsError", "DomainError", "InsufficientFunds",
    "format_cents", "parse_amount",
]
