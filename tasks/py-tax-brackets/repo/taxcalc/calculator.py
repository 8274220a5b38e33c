"""The tax calculator.

Amounts are Decimals in dollars; results are rounded to cents.
"""
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

STATUSES = ("single", "married_joint", "head_of_household")
CENT = Decimal("0.01")


@dataclass(frozen=True)
class TaxResult:
    income: Decimal
    deduction: Decimal
    taxable: Decimal
    tax: Decimal
    marginal_rate: Decimal
    effective_rate: Decimal


def compute_tax(income, status, itemized=None, year=2024):
    """Income tax on ``income`` for filing ``status`` in tax ``year``.

    ``itemized`` maps deduction categories to amounts: ``state_and_local`` (capped at
    10,000), ``mortgage_interest``, ``charity`` (capped at 60% of income) and ``medical``
    (only the part above 7.5% of income counts). The larger of the standard deduction and
    the itemized total is used.
    """
    income = Decimal(income)
    if status not in STATUSES:
        raise ValueError(f"unknown filing status {status!r}")

    if year == 2024:
        if status == "single":
            standard = Decimal("14600")
        elif status == "married_joint":
            standard = Decimal("29200")
        else:
            standard = Decimal("21900")
    elif year == 2025:
        if status == "single":
            standard = Decimal("15000")
        elif status == "married_joint":
            standard = Decimal("30000")
        else:
            standard = Decimal("22500")
    else:
        raise ValueError(f"no tax tables for {year}")

    itemized_total = Decimal(0)
    for category, amount in (itemized or {}).items():
        amount = Decimal(amount)
        if category == "state_and_local":
            amount = min(amount, Decimal("10000"))
        elif category == "charity":
            amount = min(amount, income * Decimal("0.6"))
        elif category == "medical":
            amount = max(amount - income * Decimal("0.075"), Decimal(0))
        elif category != "mortgage_interest":
            raise ValueError(f"unknown deduction {category!r}")
        itemized_total += amount
    deduction = max(standard, itemized_total)
    taxable = max(income - deduction, Decimal(0))

    if year == 2024:
        if status == "single":
            bounds = [11600, 47150, 100525, 191950, 243725, 609350]
        elif status == "married_joint":
            bounds = [23200, 94300, 201050, 383900, 487450, 731200]
        else:
            bounds = [16550, 63100, 100500, 191950, 243700, 609350]
    else:
        if status == "single":
            bounds = [11925, 48475, 103350, 197300, 250525, 626350]
        elif status == "married_joint":
            bounds = [23850, 96950, 206700, 394600, 501050, 751600]
        else:
            bounds = [17000, 64850, 103350, 197300, 250500, 626350]
    rates = ["0.10", "0.12", "0.22", "0.24", "0.32", "0.35", "0.37"]

    tax = Decimal(0)
    lower = Decimal(0)
    marginal = Decimal(rates[0])
    for upper, rate in zip(bounds + [None], rates):
        rate = Decimal(rate)
        if taxable <= lower:
            break
        top = taxable if upper is None else min(taxable, Decimal(upper))
        tax += (top - lower) * rate
        marginal = rate
        if upper is None:
            break
        lower = Decimal(upper)

    tax = tax.quantize(CENT, rounding=ROUND_HALF_UP)
    effective = (tax / income).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP) if income else Decimal(0)
    return TaxResult(income, deduction.quantize(CENT), taxable.quantize(CENT), tax, marginal, effective)
