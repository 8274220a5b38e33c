from datetime import date

from meterly import store
from meterly.plans import Plan

from .conftest import make_taxes


def boundaries(engine, sub, until):
    engine.run(until)
    return [i.issued_on for i in sorted(engine.invoices.values(), key=lambda i: i.id) if i.subscription_id == sub.id]


def test_month_end_returns_after_february(engine):
    sub = engine.subscribe("acme", "basic", date(2024, 1, 31))
    assert boundaries(engine, sub, date(2024, 8, 1)) == [
        date(2024, 1, 31),
        date(2024, 2, 29),
        date(2024, 3, 31),
        date(2024, 4, 30),
        date(2024, 5, 31),
        date(2024, 6, 30),
        date(2024, 7, 31),
    ]
    assert (sub.period.start, sub.period.end) == (date(2024, 7, 31), date(2024, 8, 31))


def test_thirtieth_survives_february(engine):
    sub = engine.subscribe("acme", "basic", date(2023, 12, 30))
    assert boundaries(engine, sub, date(2024, 4, 1))[1:] == [date(2024, 1, 30), date(2024, 2, 29), date(2024, 3, 30)]


def test_annual_leap_day(engine):
    sub = engine.subscribe("acme", "annual", date(2024, 2, 29))
    assert boundaries(engine, sub, date(2028, 3, 1)) == [
        date(2024, 2, 29),
        date(2025, 2, 28),
        date(2026, 2, 28),
        date(2027, 2, 28),
        date(2028, 2, 29),
    ]


def test_quarterly_month_end(engine, catalog):
    catalog.add(Plan("quarterly", "Quarterly", "45.00", interval="quarter"))
    sub = engine.subscribe("acme", "quarterly", date(2023, 11, 30))
    assert boundaries(engine, sub, date(2024, 12, 1))[1:] == [
        date(2024, 2, 29),
        date(2024, 5, 30),
        date(2024, 8, 30),
        date(2024, 11, 30),
    ]


def test_trial_end_is_the_anchor(engine):
    sub = engine.subscribe("acme", "trial", date(2024, 1, 1))
    assert sub.period.end == date(2024, 1, 15)
    engine.run(date(2024, 1, 15))
    assert (sub.period.start, sub.period.end) == (date(2024, 1, 15), date(2024, 2, 15))
    assert boundaries(engine, sub, date(2024, 3, 20)) == [date(2024, 1, 15), date(2024, 2, 15), date(2024, 3, 15)]


def test_trial_ending_on_month_end(engine):
    sub = engine.subscribe("acme", "trial", date(2024, 1, 17))
    assert boundaries(engine, sub, date(2024, 5, 1)) == [date(2024, 1, 31), date(2024, 2, 29), date(2024, 3, 31), date(2024, 4, 30)]


def test_anchor_survives_save_and_load(tmp_path, engine, gateway, catalog):
    sub = engine.subscribe("acme", "basic", date(2024, 1, 31))
    engine.run(date(2024, 3, 1))
    path = tmp_path / "state.json"
    store.save(engine, path)
    loaded = store.load(path, catalog, gateway, make_taxes())
    issued = loaded.run(date(2024, 5, 1))
    assert [i.issued_on for i in issued] == [date(2024, 3, 31), date(2024, 4, 30)]
    assert loaded.subscriptions.get(sub.id).period.end == date(2024, 5, 31)


def test_mid_month_start_is_stable(engine):
    sub = engine.subscribe("acme", "basic", date(2024, 1, 15))
    assert boundaries(engine, sub, date(2024, 4, 1))[1:] == [date(2024, 2, 15), date(2024, 3, 15)]
