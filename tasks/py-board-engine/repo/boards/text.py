"""Text pictures of grids: one line per row, one character per cell."""
from .grid import Grid


def from_text(picture, mapping):
    """A grid from lines of characters; ``mapping`` turns each character into a cell value."""
    lines = [line.strip() for line in picture.strip().splitlines()]
    if len({len(line) for line in lines}) != 1:
        raise ValueError("all rows must have the same length")
    grid = Grid(len(lines[0]), len(lines))
    for y, line in enumerate(lines):
        for x, char in enumerate(line):
            grid[x, y] = mapping[char]
    return grid


def to_text(grid, render):
    """Lines of characters; ``render`` turns each cell value into one character."""
    return "\n".join("".join(render(value) for value in row) for row in grid.cells)
