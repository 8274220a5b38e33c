"""Validate CSV files against a small declarative schema.

    schema = load_schema({"columns": [
        {"name": "id", "type": "int", "unique": True},
        {"name": "email", "pattern": "[^@]+@[^@]+"},
        {"name": "plan", "choices": ["free", "pro"], "required": False},
    ]})
    validate(open("users.csv").read(), schema)  # -> list of error strings
"""
from .report import error_counts, format_report
from .schema import Column, Schema, SchemaError, load_schema
from .validator import validate

__all__ = [
    "Column", "Schema", "SchemaError", "error_counts", "format_report", "load_schema", "validate",
]
