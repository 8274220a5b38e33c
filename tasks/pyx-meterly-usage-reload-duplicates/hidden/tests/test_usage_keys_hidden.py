import json
from datetime import date, datetime

from meterly import store
from meterly.money import Money
from meterly.usage import UsageEvent, UsageLedger

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


def event(sub_id, qty, day, key):
    return UsageEvent(sub_id, "requests", qty, datetime(2024, 1, day, 10), key)


def reload(engine, tmp_path, catalog, gateway, name="state.json"):
    path = tmp_path / name
    store.save(engine, path)
    return store.load(path, catalog, gateway, make_taxes())


def usage_lines(invoice):
    return [(l.quantity, l.amount) for l in invoice.lines if l.kind == "usage"]


def test_ledger_from_events_knows_their_keys():
    ledger = UsageLedger([event("s", 5, 2, "a"), event("s", 7, 3, "b")])
    assert not ledger.record(event("s", 5, 2, "a"))
    assert not ledger.record(event("s", 1, 4, "b"))
    assert ledger.record(event("s", 1, 4, "c"))
    assert len(ledger) == 3


def test_ledger_from_events_drops_repeated_keys():
    ledger = UsageLedger([event("s", 5, 2, "a"), event("s", 5, 2, "a"), event("s", 9, 3, None)])
    assert [e.quantity for e in ledger.events()] == [5, 9]


def test_ledger_without_keys_keeps_everything():
    ledger = UsageLedger([event("s", 5, 2, None), event("s", 5, 2, None)])
    assert len(ledger) == 2
    assert ledger.record(event("s", 5, 2, None))


def test_duplicate_after_reload_is_refused(tmp_path, engine, gateway, catalog, jan1):
    sub = engine.subscribe("acme", "api", jan1)
    assert engine.record_usage(event(sub.id, 800, 9, "batch-17"))
    loaded = reload(engine, tmp_path, catalog, gateway)
    assert not loaded.record_usage(event(sub.id, 800, 9, "batch-17"))
    assert loaded.record_usage(event(sub.id, 200, 10, "batch-18"))
    [invoice] = loaded.run(date(2024, 2, 1))
    assert plain(usage_lines(invoice)) == [(1000, "USD 10.00")]


def test_keys_survive_several_reloads(tmp_path, engine, gateway, catalog, jan1):
    sub = engine.subscribe("acme", "api", jan1)
    engine.record_usage(event(sub.id, 1500, 9, "k1"))
    first = reload(engine, tmp_path, catalog, gateway, "one.json")
    first.record_usage(event(sub.id, 100, 11, "k2"))
    second = reload(first, tmp_path, catalog, gateway, "two.json")
    assert not second.record_usage(event(sub.id, 1500, 9, "k1"))
    assert not second.record_usage(event(sub.id, 100, 11, "k2"))
    [invoice] = second.run(date(2024, 2, 1))
    assert plain(usage_lines(invoice)) == [(1600, "USD 13.00")]


def test_reloaded_events_keep_their_keys(tmp_path, engine, gateway, catalog, jan1):
    sub = engine.subscribe("acme", "api", jan1)
    engine.record_usage(event(sub.id, 3, 9, "k1"))
    engine.record_usage(event(sub.id, 4, 9, None))
    loaded = reload(engine, tmp_path, catalog, gateway)
    assert [e.key for e in loaded.usage.events()] == ["k1", None]


def test_state_without_keys_still_loads(tmp_path, engine, gateway, catalog, jan1):
    sub = engine.subscribe("acme", "api", jan1)
    engine.record_usage(event(sub.id, 300, 9, None))
    data = store.dump(engine)
    for entry in data["usage"]:
        entry.pop("key", None)
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data))
    loaded = store.load(path, catalog, gateway, make_taxes())
    [invoice] = loaded.run(date(2024, 2, 1))
    assert plain(usage_lines(invoice)) == [(300, "USD 3.00")]


def test_same_key_on_another_subscription_is_a_duplicate_too(tmp_path, engine, gateway, catalog, jan1):
    one = engine.subscribe("acme", "api", jan1)
    two = engine.subscribe("nyc", "api", jan1)
    engine.record_usage(event(one.id, 10, 9, "shared"))
    loaded = reload(engine, tmp_path, catalog, gateway)
    assert not loaded.record_usage(event(two.id, 10, 9, "shared"))
