"""Per-paycheck withholding estimates built on :func:`compute_tax`."""
from decimal import ROUND_HALF_UP, Decimal

from .calculator import compute_tax

PERIODS = {"weekly": 52, "biweekly": 26, "semimonthly": 24, "monthly": 12}


def withholding_per_paycheck(annual_salary, status, frequency="biweekly", year=2024):
    """The annual tax on ``annual_salary`` spread evenly over the pay periods."""
    periods = PERIODS[frequency]
    tax = compute_tax(annual_salary, status, year=year).tax
    return (tax / periods).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
