"""Operational reports over orders."""
from .audit import audit_trail, time_in_state

__all__ = ["audit_trail", "time_in_state"]
