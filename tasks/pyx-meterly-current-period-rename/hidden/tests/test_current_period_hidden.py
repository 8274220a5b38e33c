import json
import warnings
from datetime import date
from decimal import Decimal

import pytest

from meterly import store
from meterly.clock import Period
from meterly.errors import StoreError
from meterly.subscriptions import Subscription

from .conftest import make_taxes

JAN = Period(date(2024, 1, 1), date(2024, 2, 1))
FEB = Period(date(2024, 2, 1), date(2024, 3, 1))


def make(**extra):
    return Subscription(id="sub_x", customer_id="acme", plan_code="basic", current_period=JAN, anchor_day=1,
                        started_on=date(2024, 1, 1), **extra)


def test_constructor_takes_current_period():
    sub = make(quantity=2)
    assert str(sub.current_period) == "2024-01-01..2024-02-01"
    assert sub.quantity == 2
    assert sub.status.value == "active"


def test_reading_alias_warns():
    sub = make()
    with pytest.warns(DeprecationWarning):
        value = sub.period
    assert str(value) == "2024-01-01..2024-02-01"


def test_assigning_alias_warns_and_updates():
    sub = make()
    with pytest.warns(DeprecationWarning):
        sub.period = FEB
    assert str(sub.current_period) == "2024-02-01..2024-03-01"


def test_library_emits_no_deprecation_warnings(tmp_path, engine, gateway, catalog, jan1):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        sub = engine.subscribe("acme", "team", jan1, quantity=2)
        engine.subscriptions.change(sub, date(2024, 1, 17), quantity=3)
        engine.run(date(2024, 3, 1))
        engine.collect(date(2024, 3, 1))
        path = tmp_path / "state.json"
        store.save(engine, path)
        loaded = store.load(path, catalog, gateway, make_taxes())
        loaded.run(date(2024, 4, 1))
        trial = loaded.subscribe("acme", "trial", date(2024, 4, 1))
        loaded.run(date(2024, 4, 20))
    assert loaded.subscriptions.get(sub.id).current_period == Period(date(2024, 4, 1), date(2024, 5, 1))
    assert trial.current_period == Period(date(2024, 4, 15), date(2024, 5, 15))


def test_store_writes_version_4(engine, jan1):
    engine.subscribe("acme", "basic", jan1)
    data = json.loads(json.dumps(store.dump(engine)))
    assert data["version"] == 4
    [entry] = data["subscriptions"]
    assert entry["current_period"] == ["2024-01-01", "2024-02-01"]
    assert "period" not in entry


def test_store_reads_version_3(tmp_path, engine, gateway, catalog, jan1):
    engine.subscribe("acme", "basic", jan1)
    data = json.loads(json.dumps(store.dump(engine)))
    data["version"] = 3
    for entry in data["subscriptions"]:
        entry["period"] = entry.pop("current_period")
    path = tmp_path / "v3.json"
    path.write_text(json.dumps(data))
    loaded = store.load(path, catalog, gateway, make_taxes())
    assert loaded.subscriptions.get("sub_0001").current_period == JAN
    [feb] = loaded.run(date(2024, 2, 1))
    assert feb.total.amount == Decimal("20.00")
    assert json.loads(json.dumps(store.dump(loaded)))["version"] == 4


def test_store_refuses_other_versions(tmp_path, engine, catalog, jan1):
    engine.subscribe("acme", "basic", jan1)
    data = json.loads(json.dumps(store.dump(engine)))
    for version in (2, 5):
        data["version"] = version
        path = tmp_path / f"v{version}.json"
        path.write_text(json.dumps(data))
        with pytest.raises(StoreError):
            store.load(path, catalog)
