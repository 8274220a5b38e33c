"""Invoice calculation: line items, tax categories and invoice totals."""
from .invoice import Invoice
from .lines import LineItem
from .tax import tax_for, TAX_RATES

__all__ = ["Invoice", "LineItem", "tax_for", "TAX_RATES"]
