"""budget: envelope budgeting with month-to-month carry-over.

Each month the income is shared out between envelopes by priority; spending comes out of
the envelopes; at the end of the month each envelope's balance is carried over (or not)
according to the rules in :mod:`budget.rollover`.
"""
from .allocate import allocate
from .envelopes import Envelope
from .money import money
from .planner import Budget, MonthResult
from .rollover import carry

__all__ = ["Budget", "Envelope", "MonthResult", "allocate", "carry", "money"]
