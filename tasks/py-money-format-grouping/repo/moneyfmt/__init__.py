"""Locale-aware formatting of money amounts."""
from .currency import format_money, format_number
from .locales import CURRENCIES, LOCALES, Locale

__all__ = ["CURRENCIES", "LOCALES", "Locale", "format_money", "format_number"]
