"""Minesweeper rules on a boards.Grid."""
from boards import Grid


class Minefield:
    """A minefield with mines at fixed positions.

    ``reveal`` uncovers a cell; uncovering a cell with no adjacent mines also uncovers its
    neighbours (flood fill). The game is won when every cell without a mine is revealed.
    """

    def __init__(self, width, height, mines):
        self.grid = Grid(width, height, False)
        for pos in mines:
            self.grid[pos] = True
        self.revealed = set()
        self.flags = set()
        self.exploded = False

    def adjacent_mines(self, x, y):
        """Mines in the up to 8 cells around ``(x, y)``."""
        return sum(1 for nx, ny in self.grid.neighbors(x, y) if self.grid.cells[ny][nx])

    def toggle_flag(self, x, y):
        if (x, y) in self.revealed:
            return
        self.flags ^= {(x, y)}

    def reveal(self, x, y):
        """Uncover ``(x, y)``; returns the number of cells newly revealed (0 for a flag)."""
        if (x, y) in self.flags or (x, y) in self.revealed:
            return 0
        if self.grid[x, y]:
            self.exploded = True
            self.revealed.add((x, y))
            return 1
        before = len(self.revealed)
        stack = [(x, y)]
        while stack:
            cx, cy = stack.pop()
            if (cx, cy) in self.revealed or (cx, cy) in self.flags:
                continue
            self.revealed.add((cx, cy))
            if self.adjacent_mines(cx, cy) == 0:
                stack.extend(self.grid.neighbors(cx, cy))
        return len(self.revealed) - before

    @property
    def won(self):
        safe = self.grid.width * self.grid.height - sum(1 for p in self.grid.positions() if self.grid[p])
        return not self.exploded and len(self.revealed) == safe

    def picture(self):
        """The player's view: ``#`` covered, ``F`` flag, ``*`` mine, digits / ``.`` revealed."""
        rows = []
        for y in range(self.grid.height):
            row = ""
            for x in range(self.grid.width):
                if (x, y) in self.flags:
                    row += "F"
                elif (x, y) not in self.revealed:
                    row += "#"
                elif self.grid[x, y]:
                    row += "*"
                else:
                    count = self.adjacent_mines(x, y)
                    row += str(count) if count else "."
            rows.append(row)
        return "\n".join(rows)
