"""The billing engine: turns subscriptions, usage and coupons into invoices, and collects them.

Base prices are billed in advance (at the start of each period) and usage in arrears (at the end
of the period it happened in), so the invoice issued at a period boundary carries the new
period's base charge, the ended period's usage, and any pending proration.
"""

from .clock import billing_period, next_period
from .customers import CustomerBook
from .invoices import InvoiceBuilder
from .payments import Collector
from .subscriptions import Status, SubscriptionService
from .tax import TaxTable
from .usage import UsageLedger


class BillingEngine:
    def __init__(self, catalog, gateway=None, customers=None, tax_table=None, retry_days=None):
        self.catalog = catalog
        self.customers = customers if customers is not None else CustomerBook()
        self.tax_table = tax_table if tax_table is not None else TaxTable()
        self.subscriptions = SubscriptionService(catalog, self.customers)
        self.usage = UsageLedger()
        self.invoices = {}
        self.collector = Collector(gateway, retry_days) if retry_days else Collector(gateway)
        self._next_invoice = 1

    # -- subscriptions -------------------------------------------------------------------
    def subscribe(self, customer_id, plan_code, start, quantity=1, coupon=None, trial_days=None):
        """Create a subscription and issue its first invoice (unless it starts with a trial)."""
        sub = self.subscriptions.create(customer_id, plan_code, start, quantity, coupon, trial_days)
        if sub.status == Status.ACTIVE:
            self._issue(sub, start, base_period=sub.period, usage_period=None)
        return sub

    def record_usage(self, event):
        """Accept a usage event for a live subscription; False for a duplicate key."""
        sub = self.subscriptions.get(event.subscription_id)
        if not sub.is_live:
            raise ValueError(f"{sub.id} is canceled")
        return self.usage.record(event)

    # -- billing runs ----------------------------------------------------------------------
    def run(self, today):
        """Bill every period boundary reached by ``today``; returns the invoices issued."""
        issued = []
        for sub in list(self.subscriptions.subscriptions.values()):
            while sub.is_live and sub.period.end <= today:
                issued.extend(self._roll(sub))
        return issued

    def _roll(self, sub):
        plan = self.catalog.get(sub.plan_code)
        ended = sub.period
        was_trial = sub.status == Status.TRIALING
        usage_period = None if was_trial else ended
        if sub.cancel_at_period_end:
            self.subscriptions.transition(sub, Status.CANCELED)
            sub.canceled_on = ended.end
            invoice = self._issue(sub, ended.end, base_period=None, usage_period=usage_period)
            return [invoice] if invoice is not None else []
        if was_trial:
            self.subscriptions.transition(sub, Status.ACTIVE)
            new_period = billing_period(ended.end, plan.months, sub.anchor_day)
        else:
            new_period = next_period(ended, plan.months, sub.anchor_day)
        sub.period = new_period
        invoice = self._issue(sub, ended.end, base_period=new_period, usage_period=usage_period)
        return [invoice] if invoice is not None else []

    def _issue(self, sub, issued_on, base_period, usage_period):
        """Build and store the invoice for one boundary; None when there is nothing to bill."""
        plan = self.catalog.get(sub.plan_code)
        customer = self.customers.get(sub.customer_id)
        builder = InvoiceBuilder(customer, plan.currency, self.tax_table)
        if base_period is not None:
            seats = f" x {sub.quantity}" if plan.per_seat else ""
            builder.add(
                "subscription",
                f"{plan.name}{seats} ({base_period})",
                plan.recurring_amount(sub.quantity),
                base_period,
                sub.quantity,
            )
        if usage_period is not None and plan.metered is not None:
            metered = plan.metered
            units = self.usage.aggregate(sub.id, metered.metric, usage_period, metered.aggregation)
            if units > 0:
                builder.add(
                    "usage",
                    f"{metered.metric} ({usage_period})",
                    plan.usage_amount(units),
                    usage_period,
                    units,
                )
        for line in sub.pending_lines:
            builder.lines.append(line)
        sub.pending_lines = []
        if not builder.lines:
            return None
        if sub.redemption is not None and base_period is not None:
            builder.apply_coupon(sub.redemption, base_period)
        invoice = builder.build(self._new_invoice_id(), sub.id, issued_on)
        self.invoices[invoice.id] = invoice
        return invoice

    def _new_invoice_id(self):
        invoice_id = f"INV-{self._next_invoice:05d}"
        self._next_invoice += 1
        return invoice_id

    # -- collection ------------------------------------------------------------------------
    def collect(self, today):
        """Attempt every open invoice that is due; updates subscription states. Returns attempts."""
        attempts = []
        for invoice in sorted(self.invoices.values(), key=lambda i: (i.due_on, i.id)):
            if invoice.status != "open":
                continue
            customer = self.customers.get(invoice.customer_id)
            attempt = self.collector.collect(invoice, customer, today)
            if attempt is not None:
                attempts.append(attempt)
            self._settle(invoice)
        return attempts

    def _settle(self, invoice):
        sub = self.subscriptions.get(invoice.subscription_id)
        if self.collector.exhausted(invoice):
            invoice.status = "uncollectible"
            if sub.is_live:
                self.subscriptions.transition(sub, Status.CANCELED)
                sub.canceled_on = self.collector.attempts_for(invoice)[-1].on
            return
        if invoice.status == "open" and self.collector.failures(invoice) > 0:
            if sub.status == Status.ACTIVE:
                self.subscriptions.transition(sub, Status.PAST_DUE)
        elif invoice.status == "paid" and sub.status == Status.PAST_DUE:
            if not self._has_failed_invoices(sub):
                self.subscriptions.transition(sub, Status.ACTIVE)

    def _has_failed_invoices(self, sub):
        return any(
            i.subscription_id == sub.id and i.status == "open" and self.collector.failures(i) > 0
            for i in self.invoices.values()
        )

    def open_invoices(self, customer_id=None):
        return [
            i
            for i in self.invoices.values()
            if i.status == "open" and (customer_id is None or i.customer_id == customer_id)
        ]
