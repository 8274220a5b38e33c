"""Build plain-text summary reports from CSV exports."""
from .aggregate import group_totals, summarize
from .reader import parse_amount, read_rows
from .render import region_report, render_table

__all__ = ["group_totals", "parse_amount", "read_rows", "region_report", "render_table", "summarize"]
