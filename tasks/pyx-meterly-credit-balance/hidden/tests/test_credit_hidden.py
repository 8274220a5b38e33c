import json
from datetime import date
from decimal import Decimal

from meterly import store
from meterly.customers import Customer
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


def downgraded(engine, jan1, customer="acme"):
    sub = engine.subscribe(customer, "team", jan1, quantity=5)
    engine.collect(jan1)
    engine.subscriptions.change(sub, date(2024, 1, 2), quantity=1)
    return sub


def by_date(engine):
    return {i.issued_on: i for i in engine.invoices.values()}


def test_default_balance_is_zero_in_customer_currency():
    assert Customer("x", "X", "US-CA").credit_balance.amount == Decimal("0")
    assert plain(Customer("y", "Y", "DE", currency="EUR").credit_balance) == "EUR 0.00"


def test_negative_invoice_becomes_credit(engine, jan1):
    downgraded(engine, jan1)
    [feb] = engine.run(date(2024, 2, 1))
    assert feb.total.amount == Decimal("-34.45")
    assert feb.status == "paid"
    assert plain(feb.amount_due) == "USD 0.00"
    assert engine.customers.get("acme").credit_balance.amount == Decimal("34.45")


def test_credit_pays_following_invoices(engine, gateway, jan1):
    downgraded(engine, jan1)
    engine.run(date(2024, 4, 1))
    invoices = by_date(engine)
    for day in (date(2024, 3, 1), date(2024, 4, 1)):
        assert invoices[day].status == "paid"
        assert invoices[day].amount_paid.amount == Decimal("12.00")
        assert invoices[day].payments[0][0] == day
    assert engine.customers.get("acme").credit_balance.amount == Decimal("10.45")
    charges_before = len(gateway.charges)
    engine.collect(date(2024, 4, 1))
    assert len(gateway.charges) == charges_before


def test_partly_covered_invoice_is_collected_for_the_rest(engine, gateway, jan1):
    downgraded(engine, jan1)
    engine.run(date(2024, 5, 1))
    may = by_date(engine)[date(2024, 5, 1)]
    assert may.status == "open"
    assert may.amount_paid.amount == Decimal("10.45")
    assert may.amount_due.amount == Decimal("1.55")
    assert engine.customers.get("acme").credit_balance.amount == Decimal("0")
    engine.collect(date(2024, 5, 1))
    assert plain(gateway.charges[-1]) == ("acme", "USD 1.55", "INV-00005")
    assert may.status == "paid"


def test_credit_is_per_customer(engine, jan1):
    downgraded(engine, jan1)
    engine.subscribe("nyc", "basic", jan1)
    engine.run(date(2024, 2, 1))
    assert engine.customers.get("nyc").credit_balance.amount == Decimal("0")
    nyc_feb = [i for i in engine.invoices.values() if i.customer_id == "nyc" and i.issued_on == date(2024, 2, 1)]
    assert nyc_feb[0].amount_due.amount == Decimal("21.78")


def test_new_subscription_uses_existing_credit(engine, jan1):
    downgraded(engine, jan1)
    engine.run(date(2024, 2, 1))
    sub = engine.subscribe("acme", "pro", date(2024, 2, 10))
    first = [i for i in engine.invoices.values() if i.subscription_id == sub.id][0]
    assert first.amount_paid.amount == Decimal("34.45")
    assert first.amount_due.amount == Decimal("15.55")


def test_balance_survives_save_and_load(tmp_path, engine, gateway, catalog, jan1):
    downgraded(engine, jan1)
    engine.run(date(2024, 2, 1))
    path = tmp_path / "state.json"
    store.save(engine, path)
    loaded = store.load(path, catalog, gateway, make_taxes())
    assert loaded.customers.get("acme").credit_balance.amount == Decimal("34.45")
    [mar] = loaded.run(date(2024, 3, 1))
    assert mar.status == "paid"
    assert loaded.customers.get("acme").credit_balance.amount == Decimal("22.45")


def test_state_without_balances_loads(tmp_path, engine, gateway, catalog, jan1):
    engine.subscribe("berlin", "eu-basic", jan1)
    data = json.loads(json.dumps(store.dump(engine)))
    data["customers"] = [
        {"id": "berlin", "name": "Berlin GmbH", "region": "DE", "currency": "EUR", "tax_exempt": False,
         "payment_terms_days": 0, "email": ""},
    ]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    loaded = store.load(path, catalog, gateway, make_taxes())
    assert plain(loaded.customers.get("berlin").credit_balance) == "EUR 0.00"
    [feb] = loaded.run(date(2024, 2, 1))
    assert plain(feb.amount_due) == "EUR 20.00"
