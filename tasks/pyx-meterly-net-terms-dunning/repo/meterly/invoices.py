"""Invoices and the builder that puts their lines together.

Line kinds: ``subscription`` and ``usage`` charges (the discountable part), ``proration``
credits and charges from mid-period changes, the ``discount`` line a coupon adds and the
``tax`` line of exclusive taxes. An inclusive tax (VAT) adds no line; the invoice reports the
part of its total that is tax in ``tax_included``.
"""

from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal

from .money import Money, total

DISCOUNTABLE = ("subscription", "usage")
LINE_KINDS = DISCOUNTABLE + ("proration", "discount", "tax")
STATUSES = ("open", "paid", "void", "uncollectible")


@dataclass(frozen=True)
class InvoiceLine:
    kind: str
    description: str
    amount: Money
    period: object = None
    quantity: Decimal = Decimal(1)

    def __post_init__(self):
        if self.kind not in LINE_KINDS:
            raise ValueError(f"unknown invoice line kind {self.kind!r}")


@dataclass
class Invoice:
    id: str
    customer_id: str
    subscription_id: str
    currency: str
    issued_on: object
    due_on: object
    lines: list = field(default_factory=list)
    tax_included: Money | None = None
    status: str = "open"
    payments: list = field(default_factory=list)

    def _sum(self, kinds=None):
        return total((l.amount for l in self.lines if kinds is None or l.kind in kinds), self.currency)

    @property
    def subtotal(self):
        """Charges and proration before discounts and tax."""
        return self._sum(DISCOUNTABLE + ("proration",))

    @property
    def discount_total(self):
        return -self._sum(("discount",))

    @property
    def tax_total(self):
        """Tax on this invoice, whether added on top or included in the prices."""
        if self.tax_included is not None:
            return self.tax_included
        return self._sum(("tax",))

    @property
    def total(self):
        return self._sum().rounded()

    @property
    def amount_paid(self):
        return total((amount for _, amount in self.payments), self.currency)

    @property
    def amount_due(self):
        due = self.total - self.amount_paid
        return due if due.amount > 0 else Money.zero(self.currency)

    def record_payment(self, amount, on):
        """Record a payment; returns the part of ``amount`` the invoice did not need."""
        if self.status in ("void", "uncollectible"):
            raise ValueError(f"invoice {self.id} is {self.status}")
        applied = min(amount, self.amount_due)
        if not applied.is_zero():
            self.payments.append((on, applied))
        if self.amount_due.is_zero():
            self.status = "paid"
        return amount - applied

    def void(self):
        if self.status == "paid":
            raise ValueError(f"invoice {self.id} is paid and cannot be voided")
        self.status = "void"


class InvoiceBuilder:
    """Collects lines for one customer and period, then adds discount and tax."""

    def __init__(self, customer, currency, tax_table=None):
        self.customer = customer
        self.currency = currency
        self.tax_table = tax_table
        self.lines = []
        self._redemption = None
        self._period = None

    def add(self, kind, description, amount, period=None, quantity=Decimal(1)):
        self.lines.append(InvoiceLine(kind, description, amount, period, Decimal(quantity)))
        return self

    def apply_coupon(self, redemption, period):
        """Discount this invoice with ``redemption`` if it still covers ``period``."""
        self._redemption = redemption
        self._period = period
        return self

    def _discount_line(self, lines):
        if self._redemption is None or not self._redemption.applies_to(self._period):
            return None
        discountable = total((l.amount for l in lines if l.kind in DISCOUNTABLE), self.currency)
        discount = self._redemption.coupon.discount_on(discountable)
        if discount.is_zero():
            return None
        self._redemption.mark(self._period)
        return InvoiceLine("discount", f"Coupon {self._redemption.coupon.code}", -discount)

    def build(self, invoice_id, subscription_id, issued_on):
        lines = list(self.lines)
        discount = self._discount_line(lines)
        if discount is not None:
            lines.append(discount)
        taxable = total((l.amount for l in lines), self.currency)
        tax_included = None
        rate = self.tax_table.rate_for(self.customer) if self.tax_table else None
        if rate is not None and taxable.amount > 0:
            tax = rate.tax_on(taxable)
            if rate.inclusive:
                tax_included = tax
            else:
                lines.append(InvoiceLine("tax", f"{rate.name} {rate.rate * 100:g}%", tax))
        due_on = issued_on + timedelta(days=self.customer.payment_terms_days)
        return Invoice(
            id=invoice_id,
            customer_id=self.customer.id,
            subscription_id=subscription_id,
            currency=self.currency,
            issued_on=issued_on,
            due_on=due_on,
            lines=lines,
            tax_included=tax_included,
        )
