"""Reports over budget months."""
from .export import csv_rows
from .table import month_table

__all__ = ["csv_rows", "month_table"]
