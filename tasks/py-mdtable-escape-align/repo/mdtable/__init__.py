"""Render GitHub-flavoured Markdown tables."""
from .align import pad, separator
from .cells import escape_cell
from .render import render_table

__all__ = ["escape_cell", "pad", "render_table", "separator"]
