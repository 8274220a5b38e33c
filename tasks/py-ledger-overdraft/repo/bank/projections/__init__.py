"""Read models rebuilt from the whole event log."""
from .balances import BalanceProjection
from .statements import statement

__all__ = ["BalanceProjection", "statement"]
