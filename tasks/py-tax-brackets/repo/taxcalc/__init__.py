"""taxcalc: federal income tax estimates for our payroll previews (not tax advice)."""
from .calculator import STATUSES, TaxResult, compute_tax

__all__ = ["STATUSES", "TaxResult", "compute_tax"]
