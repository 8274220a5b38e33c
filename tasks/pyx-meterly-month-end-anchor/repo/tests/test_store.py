import json
from datetime import date, datetime

import pytest

from meterly import store
from meterly.coupons import Coupon
from meterly.errors import StoreError
from meterly.money import Money
from meterly.usage import UsageEvent

from .conftest import make_taxes


def busy_engine(engine, jan1):
    sub = engine.subscribe("nyc", "api", jan1, coupon=Coupon("3M", percent_off=10, duration="repeating", duration_periods=3))
    engine.record_usage(UsageEvent(sub.id, "requests", "1234.5", datetime(2024, 1, 9, 10, 30), "k1"))
    engine.subscribe("berlin", "eu-basic", jan1)
    engine.run(date(2024, 2, 1))
    team = engine.subscribe("acme", "team", date(2024, 2, 1), quantity=2)
    engine.subscriptions.change(team, date(2024, 2, 20), quantity=3)
    engine.collect(date(2024, 1, 16))
    return engine


def test_round_trip(tmp_path, engine, gateway, catalog, jan1):
    busy_engine(engine, jan1)
    path = tmp_path / "state.json"
    store.save(engine, path)
    loaded = store.load(path, catalog, gateway, make_taxes())
    assert store.dump(loaded) == store.dump(engine)
    assert not (tmp_path / "state.json.tmp").exists()


def test_amounts_are_strings(tmp_path, engine, jan1):
    busy_engine(engine, jan1)
    data = json.loads(json.dumps(store.dump(engine)))
    line = data["invoices"][0]["lines"][0]
    assert line["amount"] == {"amount": "10.00", "currency": "USD"}


def test_loaded_engine_keeps_billing(tmp_path, engine, gateway, catalog, jan1):
    busy_engine(engine, jan1)
    path = tmp_path / "state.json"
    store.save(engine, path)
    loaded = store.load(path, catalog, gateway, make_taxes())
    issued = loaded.run(date(2024, 3, 1))
    assert [i.id for i in issued] == ["INV-00006", "INV-00007", "INV-00008"]
    assert issued[0].total == Money("9.80")
    assert [l.kind for l in issued[2].lines] == ["subscription", "proration", "proration"]
    assert issued[2].total == Money("40.13")


def test_bad_files(tmp_path, catalog):
    path = tmp_path / "state.json"
    path.write_text("{not json")
    with pytest.raises(StoreError):
        store.load(path, catalog)
    path.write_text(json.dumps({"format": "meterly-state", "version": 1}))
    with pytest.raises(StoreError, match="version"):
        store.load(path, catalog)
