"""Plain-text month-end reports."""
from .summary import render_summary

__all__ = ["render_summary"]
