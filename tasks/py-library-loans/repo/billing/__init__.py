"""Billing: late fees and patron accounts."""
from .fees import days_late, late_fee
from .ledger import PatronAccount

__all__ = ["PatronAccount", "days_late", "late_fee"]
