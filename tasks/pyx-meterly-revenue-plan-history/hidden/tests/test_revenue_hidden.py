import json
from datetime import date
from decimal import Decimal

from meterly import cli, reports, store
from meterly.clock import Period
from meterly.money import Money

from .conftest import make_taxes


def plain(value):
    """``value`` with every Money written out as text ("USD 12.50"), for comparisons."""
    if isinstance(value, Money):
        return str(value)
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(plain(item) for item in value)
    return value

OLD_STATE = '{"format": "meterly-state", "version": 3, "customers": [{"id": "acme", "name": "Acme Inc", "region": "US-CA", "currency": "USD", "tax_exempt": false, "payment_terms_days": 0, "email": ""}], "subscriptions": [{"id": "sub_0001", "customer_id": "acme", "plan_code": "pro", "period": ["2024-01-01", "2024-02-01"], "anchor_day": 1, "started_on": "2024-01-01", "quantity": 1, "status": "active", "trial_end": null, "cancel_at_period_end": false, "canceled_on": null, "redemption": null, "pending_lines": []}], "invoices": [{"id": "INV-00001", "customer_id": "acme", "subscription_id": "sub_0001", "currency": "USD", "issued_on": "2024-01-01", "due_on": "2024-01-01", "lines": [{"kind": "subscription", "description": "Basic (2024-01-01..2024-02-01)", "amount": {"amount": "20.00", "currency": "USD"}, "period": ["2024-01-01", "2024-02-01"], "quantity": "1"}], "tax_included": null, "status": "paid", "payments": [["2024-01-01", {"amount": "20.00", "currency": "USD"}]]}], "usage": [], "attempts": [{"invoice_id": "INV-00001", "on": "2024-01-01", "amount": {"amount": "20.00", "currency": "USD"}, "succeeded": true}], "counters": {"subscription": 2, "invoice": 2}}'
JAN = Period(date(2024, 1, 1), date(2024, 2, 1))
FEB = Period(date(2024, 2, 1), date(2024, 3, 1))


def upgraded(engine, jan1):
    sub = engine.subscribe("acme", "basic", jan1)
    engine.collect(jan1)
    engine.subscriptions.change(sub, date(2024, 1, 17), plan_code="pro")
    engine.run(date(2024, 2, 1))
    engine.collect(date(2024, 2, 1))
    return sub


def test_upgrade_keeps_earlier_revenue(engine, jan1):
    upgraded(engine, jan1)
    assert plain(reports.revenue_by_plan(engine)) == {"basic": "USD 20.00", "pro": "USD 64.51"}
    assert plain(reports.revenue_by_plan(engine, JAN)) == {"basic": "USD 20.00"}
    assert plain(reports.revenue_by_plan(engine, FEB)) == {"pro": "USD 64.51"}


def test_downgrade_keeps_earlier_revenue(engine, jan1):
    sub = engine.subscribe("acme", "team", jan1, quantity=3)
    engine.collect(jan1)
    engine.subscriptions.change(sub, date(2024, 2, 1), plan_code="basic", quantity=1)
    engine.run(date(2024, 3, 1))
    engine.collect(date(2024, 3, 1))
    assert plain(reports.revenue_by_plan(engine)) == {"basic": "USD 40.00", "team": "USD 36.00"}


def test_payment_after_the_change_counts_for_the_invoice_plan(engine, gateway, jan1):
    sub = engine.subscribe("acme", "basic", jan1)
    gateway.fail("acme")
    engine.collect(jan1)
    engine.subscriptions.change(sub, date(2024, 1, 2), plan_code="pro")
    engine.collect(date(2024, 1, 4))
    assert plain(reports.revenue_by_plan(engine)) == {"basic": "USD 20.00"}


def test_revenue_survives_save_and_load(tmp_path, engine, gateway, catalog, jan1):
    upgraded(engine, jan1)
    path = tmp_path / "state.json"
    store.save(engine, path)
    loaded = store.load(path, catalog, gateway, make_taxes())
    assert plain(reports.revenue_by_plan(loaded)) == {"basic": "USD 20.00", "pro": "USD 64.51"}
    loaded.run(date(2024, 3, 1))
    loaded.collect(date(2024, 3, 1))
    assert plain(reports.revenue_by_plan(loaded)) == {"basic": "USD 20.00", "pro": "USD 114.51"}


def test_cli_report_uses_invoice_plans(engine, jan1):
    upgraded(engine, jan1)
    text = cli.format_report(engine, date(2024, 2, 2))
    assert text.splitlines()[-3:] == ["Revenue by plan:", "  basic: USD 20.00", "  pro: USD 64.51"]


def test_current_state_files_still_load(tmp_path, gateway, catalog):
    path = tmp_path / "old.json"
    path.write_text(OLD_STATE)
    loaded = store.load(path, catalog, gateway, make_taxes())
    assert plain(reports.revenue_by_plan(loaded)) == {"pro": "USD 20.00"}
    [feb] = loaded.run(date(2024, 2, 1))
    loaded.collect(date(2024, 2, 1))
    assert feb.total.amount == Decimal("50.00")
    assert plain(reports.revenue_by_plan(loaded)) == {"pro": "USD 70.00"}
    assert json.loads(json.dumps(store.dump(loaded)))["invoices"][1]["id"] == "INV-00002"
