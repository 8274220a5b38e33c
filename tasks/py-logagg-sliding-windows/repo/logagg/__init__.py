"""Aggregate access-log lines into per-time-window statistics."""
from .parse import LogRecord, ParseError, parse_line, parse_lines
from .stats import WindowStats, summarize
from .windows import tumbling_windows
from .report import aggregate, render_table

__all__ = [
    "LogRecord", "ParseError", "WindowStats", "aggregate", "parse_line", "parse_lines",
    "render_table", "summarize", "tumbling_windows",
]
