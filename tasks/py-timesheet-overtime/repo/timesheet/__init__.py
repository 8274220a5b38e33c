"""Timesheet entries: parsing and grouping into working weeks."""
from .entries import Entry, parse_entries
from .weeks import group_by_week, week_key

__all__ = ["Entry", "parse_entries", "group_by_week", "week_key"]
