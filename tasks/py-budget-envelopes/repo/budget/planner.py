"""Running a budget month by month."""
from dataclasses import dataclass

from .allocate import allocate
from .money import ZERO, money
from .rollover import carry


@dataclass(frozen=True)
class MonthResult:
    """Everything about one month, per envelope name (Decimals)."""

    month: str
    opening: dict
    allocated: dict
    spent: dict
    closing: dict
    carried: dict
    unassigned: object

    def available(self, name):
        """What envelope ``name`` could spend this month: opening plus allocation."""
        return self.opening[name] + self.allocated[name]


class Budget:
    """A set of envelopes and their balances carried from month to month."""

    def __init__(self, envelopes):
        self.envelopes = list(envelopes)
        self.opening = {e.name: ZERO for e in self.envelopes}
        self.history = []

    def run_month(self, month, income, spending):
        """Fund the envelopes from ``income``, apply ``spending`` (name -> amount) and close.

        Returns the :class:`MonthResult`; the carried balances open the next month.
        """
        unknown = set(spending) - set(self.opening)
        if unknown:
            raise KeyError(f"spending on unknown envelopes: {', '.join(sorted(unknown))}")
        allocated, unassigned = allocate(income, self.envelopes)
        spent = {e.name: money(spending.get(e.name, 0)) for e in self.envelopes}
        closing = {e.name: self.opening[e.name] + allocated[e.name] - spent[e.name]
                   for e in self.envelopes}
        carried = {e.name: carry(e, closing[e.name]) for e in self.envelopes}
        result = MonthResult(month, dict(self.opening), allocated, spent, closing, carried, unassigned)
        self.history.append(result)
        self.opening = carried
        return result
