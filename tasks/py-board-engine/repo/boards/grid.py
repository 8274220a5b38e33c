"""A fixed-size rectangular grid of cells addressed as ``(x, y)``, origin top-left."""


class Grid:
    """``width`` x ``height`` cells, each holding any value (``fill`` initially)."""

    def __init__(self, width, height, fill=None):
        if width <= 0 or height <= 0:
            raise ValueError(f"grid must be at least 1x1, not {width}x{height}")
        self.width = width
        self.height = height
        self.cells = [[fill] * width for _ in range(height)]

    def __getitem__(self, pos):
        x, y = pos
        self._check(x, y)
        return self.cells[y][x]

    def __setitem__(self, pos, value):
        x, y = pos
        self._check(x, y)
        self.cells[y][x] = value

    def _check(self, x, y):
        if not self.contains(x, y):
            raise IndexError(f"({x}, {y}) is outside the {self.width}x{self.height} grid")

    def contains(self, x, y):
        return 0 <= x < self.width and 0 <= y < self.height

    def positions(self):
        """Every ``(x, y)``, row by row."""
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    def neighbors(self, x, y):
        """The up to 8 positions around ``(x, y)`` that lie on the grid (no wrapping)."""
        result = []
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if dx == 0 and dy == 0:
                    continue
                nx, ny = x + dx, y + dy
                try:
                    self.cells[ny][nx]
                except IndexError:
                    continue
                result.append((nx, ny))
        return result

    def neighbors_wrapped(self, x, y):
        """The 8 positions around ``(x, y)`` on a torus: edges wrap to the opposite side."""
        return [((x + dx) % self.width, (y + dy) % self.height)
                for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]

    def copy(self):
        other = Grid(self.width, self.height)
        other.cells = [row[:] for row in self.cells]
        return other

    def __eq__(self, other):
        return isinstance(other, Grid) and self.cells == other.cells
