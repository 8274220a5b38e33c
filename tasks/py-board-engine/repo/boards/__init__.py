"""boards: rectangular cell grids shared by our puzzle games."""
from .grid import Grid
from .text import from_text, to_text

__all__ = ["Grid", "from_text", "to_text"]
