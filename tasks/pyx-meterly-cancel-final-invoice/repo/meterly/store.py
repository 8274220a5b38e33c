"""JSON persistence of a billing engine's state.

The catalog is configuration and is not stored: ``load`` takes the catalog to bind plan codes
to. Amounts are written as strings (``"19.99"``) so no precision is lost, dates in ISO format.
A file is written to a temporary name and renamed into place, so a crash never leaves half a
file behind.
"""

import json
import os
from datetime import date, datetime
from decimal import Decimal

from .billing import BillingEngine
from .clock import Period
from .coupons import Coupon, Redemption
from .customers import Customer
from .errors import StoreError
from .invoices import Invoice, InvoiceLine
from .money import Money
from .payments import Attempt
from .subscriptions import Status, Subscription
from .usage import UsageEvent

FORMAT = "meterly-state"
VERSION = 3


def _money(m):
    return None if m is None else {"amount": str(m.amount), "currency": m.currency}


def _read_money(d):
    return None if d is None else Money(Decimal(d["amount"]), d["currency"])


def _day(d):
    return None if d is None else d.isoformat()


def _read_day(s):
    return None if s is None else date.fromisoformat(s)


def _period(p):
    return None if p is None else [p.start.isoformat(), p.end.isoformat()]


def _read_period(v):
    return None if v is None else Period(date.fromisoformat(v[0]), date.fromisoformat(v[1]))


def _coupon(c):
    return {
        "code": c.code,
        "percent_off": None if c.percent_off is None else str(c.percent_off),
        "amount_off": _money(c.amount_off),
        "duration": c.duration,
        "duration_periods": c.duration_periods,
    }


def _read_coupon(d):
    return Coupon(
        code=d["code"],
        percent_off=None if d["percent_off"] is None else Decimal(d["percent_off"]),
        amount_off=_read_money(d["amount_off"]),
        duration=d["duration"],
        duration_periods=d["duration_periods"],
    )


def _line(line):
    return {
        "kind": line.kind,
        "description": line.description,
        "amount": _money(line.amount),
        "period": _period(line.period),
        "quantity": str(line.quantity),
    }


def _read_line(d):
    return InvoiceLine(
        d["kind"], d["description"], _read_money(d["amount"]), _read_period(d["period"]), Decimal(d["quantity"])
    )


def _subscription(s):
    return {
        "id": s.id,
        "customer_id": s.customer_id,
        "plan_code": s.plan_code,
        "period": _period(s.period),
        "anchor_day": s.anchor_day,
        "started_on": _day(s.started_on),
        "quantity": s.quantity,
        "status": s.status.value,
        "trial_end": _day(s.trial_end),
        "cancel_at_period_end": s.cancel_at_period_end,
        "canceled_on": _day(s.canceled_on),
        "redemption": None
        if s.redemption is None
        else {"coupon": _coupon(s.redemption.coupon), "periods": [_day(p) for p in s.redemption.periods]},
        "pending_lines": [_line(l) for l in s.pending_lines],
    }


def _read_subscription(d):
    redemption = None
    if d["redemption"] is not None:
        redemption = Redemption(
            _read_coupon(d["redemption"]["coupon"]), [_read_day(p) for p in d["redemption"]["periods"]]
        )
    return Subscription(
        id=d["id"],
        customer_id=d["customer_id"],
        plan_code=d["plan_code"],
        period=_read_period(d["period"]),
        anchor_day=d["anchor_day"],
        started_on=_read_day(d["started_on"]),
        quantity=d["quantity"],
        status=Status(d["status"]),
        trial_end=_read_day(d["trial_end"]),
        cancel_at_period_end=d["cancel_at_period_end"],
        canceled_on=_read_day(d["canceled_on"]),
        redemption=redemption,
        pending_lines=[_read_line(l) for l in d["pending_lines"]],
    )


def _invoice(i):
    return {
        "id": i.id,
        "customer_id": i.customer_id,
        "subscription_id": i.subscription_id,
        "currency": i.currency,
        "issued_on": _day(i.issued_on),
        "due_on": _day(i.due_on),
        "lines": [_line(l) for l in i.lines],
        "tax_included": _money(i.tax_included),
        "status": i.status,
        "payments": [[_day(on), _money(amount)] for on, amount in i.payments],
    }


def _read_invoice(d):
    return Invoice(
        id=d["id"],
        customer_id=d["customer_id"],
        subscription_id=d["subscription_id"],
        currency=d["currency"],
        issued_on=_read_day(d["issued_on"]),
        due_on=_read_day(d["due_on"]),
        lines=[_read_line(l) for l in d["lines"]],
        tax_included=_read_money(d["tax_included"]),
        status=d["status"],
        payments=[(_read_day(on), _read_money(amount)) for on, amount in d["payments"]],
    )


def _event(e):
    return {
        "subscription_id": e.subscription_id,
        "metric": e.metric,
        "quantity": str(e.quantity),
        "timestamp": e.timestamp.isoformat(),
        "key": e.key,
    }


def _read_event(d):
    return UsageEvent(
        d["subscription_id"], d["metric"], Decimal(d["quantity"]), datetime.fromisoformat(d["timestamp"]), d.get("key")
    )


def _attempt(a):
    return {"invoice_id": a.invoice_id, "on": _day(a.on), "amount": _money(a.amount), "succeeded": a.succeeded}


def _read_attempt(d):
    return Attempt(d["invoice_id"], _read_day(d["on"]), _read_money(d["amount"]), d["succeeded"])


def dump(engine):
    """The engine's state as a JSON-ready dict."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "customers": [vars(c).copy() for c in engine.customers],
        "subscriptions": [_subscription(s) for s in engine.subscriptions.subscriptions.values()],
        "invoices": [_invoice(i) for i in engine.invoices.values()],
        "usage": [_event(e) for e in engine.usage.events()],
        "attempts": [_attempt(a) for attempts in engine.collector.attempts.values() for a in attempts],
        "counters": {"subscription": engine.subscriptions._next_id, "invoice": engine._next_invoice},
    }


def restore(data, catalog, gateway=None, tax_table=None):
    """A new engine holding the state ``data`` (from ``dump``) describes."""
    if data.get("format") != FORMAT:
        raise StoreError("not a meterly state file")
    if data.get("version") != VERSION:
        raise StoreError(f"unsupported state version {data.get('version')!r}; expected {VERSION}")
    engine = BillingEngine(catalog, gateway, tax_table=tax_table)
    for c in data["customers"]:
        engine.customers.add(Customer(**c))
    for s in data["subscriptions"]:
        sub = _read_subscription(s)
        engine.subscriptions.subscriptions[sub.id] = sub
    for i in data["invoices"]:
        invoice = _read_invoice(i)
        engine.invoices[invoice.id] = invoice
    for e in data["usage"]:
        engine.usage.record(_read_event(e))
    for a in data["attempts"]:
        attempt = _read_attempt(a)
        engine.collector.attempts.setdefault(attempt.invoice_id, []).append(attempt)
    engine.subscriptions._next_id = data["counters"]["subscription"]
    engine._next_invoice = data["counters"]["invoice"]
    return engine


def save(engine, path):
    """Write the engine's state to ``path`` atomically."""
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(dump(engine), f, indent=2, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def load(path, catalog, gateway=None, tax_table=None):
    """Read a state file written by ``save``."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        raise StoreError(f"cannot read state file {path}: {e}") from e
    return restore(data, catalog, gateway, tax_table)
