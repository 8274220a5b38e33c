"""Single-elimination brackets."""


def seed_order(size):
    """Seeds in bracket order for a bracket of ``size`` slots (a power of two).

    The standard order keeps the best seeds apart for as long as possible: seed 1 and 2
    can only meet in the final, seeds 1-4 only from the semi-finals on, and so on. Each
    first-round pair adds up to ``size + 1``: for 8, ``[1, 8, 4, 5, 2, 7, 3, 6]``.
    """
    if size < 1 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two, not {size}")
    order = [1]
    while len(order) < size:
        slots = len(order) * 2
        order = [seed for top in sorted(order) for seed in (top, slots + 1 - top)]
    return order


class Bracket:
    """A single-elimination bracket for ``entrants`` listed best seed first.

    When the number of entrants is not a power of two the bracket is padded with byes,
    which go to the best seeds: a player drawn against a bye advances automatically.
    """

    def __init__(self, entrants):
        if len(entrants) < 2:
            raise ValueError("a bracket needs at least two entrants")
        self.entrants = list(entrants)
        size = 1
        while size < len(self.entrants):
            size *= 2
        self.size = size
        self.rounds = [self._first_round()]

    def _first_round(self):
        slots = [self.entrants[s - 1] if s <= len(self.entrants) else None
                 for s in seed_order(self.size)]
        return [(slots[i], slots[i + 1]) for i in range(0, self.size, 2)]

    def byes(self):
        """Entrants who advance from the first round without playing."""
        return [a if b is None else b for a, b in self.rounds[0] if a is None or b is None]

    def advance(self, winners):
        """Record the winners of the current round and draw the next one; returns it.

        ``winners`` names the winner of each match actually played, in any order.
        """
        current = self.rounds[-1]
        if len(current) == 1:
            raise ValueError("the final has been played")
        through = []
        for a, b in current:
            if a is None or b is None:
                through.append(a if b is None else b)
            elif a in winners:
                through.append(a)
            elif b in winners:
                through.append(b)
            else:
                raise ValueError(f"no winner given for {a} v {b}")
        nxt = [(through[i], through[i + 1]) for i in range(0, len(through), 2)]
        self.rounds.append(nxt)
        return nxt
