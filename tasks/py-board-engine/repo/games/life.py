"""Life-like cellular automata (Conway's Game of Life is B3/S23)."""
import re

from boards import Grid, from_text, to_text

_RULE = re.compile(r"^B([0-8]*)/S([0-8]*)$")


def parse_rule(rule):
    """``"B3/S23"`` -> ``({3}, {2, 3})``: neighbour counts for birth and for survival."""
    match = _RULE.match(rule.upper())
    if not match:
        raise ValueError(f"invalid rule {rule!r}, expected e.g. 'B3/S23'")
    return {int(c) for c in match.group(1)}, {int(c) for c in match.group(2)}


class Life:
    """A board of live (True) and dead (False) cells.

    On a bounded board (``wrap=False``) cells beyond the edge are dead; with ``wrap=True``
    the board is a torus.
    """

    def __init__(self, grid, rule="B3/S23", wrap=False):
        self.grid = grid
        self.birth, self.survive = parse_rule(rule)
        self.wrap = wrap
        self.generation = 0

    @classmethod
    def from_text(cls, picture, **options):
        """``#`` is alive, ``.`` is dead."""
        return cls(from_text(picture, {"#": True, ".": False}), **options)

    def live_neighbors(self, x, y):
        around = self.grid.neighbors_wrapped(x, y) if self.wrap else self.grid.neighbors(x, y)
        return sum(1 for nx, ny in around if self.grid.cells[ny][nx])

    def step(self):
        """Advance one generation."""
        nxt = Grid(self.grid.width, self.grid.height, False)
        for x, y in self.grid.positions():
            count = self.live_neighbors(x, y)
            alive = self.grid[x, y]
            nxt[x, y] = count in self.survive if alive else count in self.birth
        self.grid = nxt
        self.generation += 1
        return self

    def population(self):
        return sum(1 for pos in self.grid.positions() if self.grid[pos])

    def __str__(self):
        return to_text(self.grid, lambda alive: "#" if alive else ".")
