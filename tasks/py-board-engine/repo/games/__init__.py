"""Games built on boards.Grid."""
from .life import Life, parse_rule
from .minesweeper import Minefield

__all__ = ["Life", "Minefield", "parse_rule"]
