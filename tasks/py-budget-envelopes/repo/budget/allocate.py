"""Sharing a month's income out between envelopes."""
from .envelopes import funding_order
from .money import ZERO, money


def allocate(income, envelopes):
    """``(allocations, unassigned)`` for ``income``.

    Envelopes are funded in :func:`~budget.envelopes.funding_order`, each up to what it
    needs this month, until the income runs out; what is left is ``unassigned``.
    ``allocations`` maps every envelope name to its amount (possibly zero).
    """
    remaining = money(income)
    allocations = {}
    for envelope in funding_order(envelopes):
        need = envelope.target
        given = min(need, remaining) if need > ZERO else ZERO
        allocations[envelope.name] = given
        remaining -= given
    return allocations, remaining
