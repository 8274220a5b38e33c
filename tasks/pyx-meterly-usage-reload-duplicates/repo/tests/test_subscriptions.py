from datetime import date

import pytest

from meterly.errors import InvalidTransition, UnknownCustomer
from meterly.subscriptions import Status


def test_create_monthly(engine, jan1):
    sub = engine.subscriptions.create("acme", "basic", jan1)
    assert sub.status == Status.ACTIVE
    assert (sub.period.start, sub.period.end) == (jan1, date(2024, 2, 1))
    assert sub.anchor_day == 1


def test_create_with_trial(engine, jan1):
    sub = engine.subscriptions.create("acme", "trial", jan1)
    assert sub.status == Status.TRIALING
    assert sub.trial_end == date(2024, 1, 15)
    assert sub.period.end == date(2024, 1, 15)


def test_currency_must_match(engine, jan1):
    with pytest.raises(InvalidTransition):
        engine.subscriptions.create("acme", "eu-basic", jan1)
    with pytest.raises(UnknownCustomer):
        engine.subscriptions.create("nobody", "basic", jan1)


def test_cancel_at_period_end_and_now(engine, jan1):
    sub = engine.subscriptions.create("acme", "basic", jan1)
    engine.subscriptions.cancel(sub, date(2024, 1, 10))
    assert sub.cancel_at_period_end and sub.status == Status.ACTIVE
    engine.subscriptions.cancel(sub, date(2024, 1, 11), at_period_end=False)
    assert sub.status == Status.CANCELED and sub.canceled_on == date(2024, 1, 11)
    with pytest.raises(InvalidTransition):
        engine.subscriptions.cancel(sub, date(2024, 1, 12))


def test_transitions_are_checked(engine, jan1):
    sub = engine.subscriptions.create("acme", "basic", jan1)
    with pytest.raises(InvalidTransition):
        engine.subscriptions.transition(sub, Status.TRIALING)


def test_change_adds_pending_proration(engine, jan1):
    sub = engine.subscriptions.create("acme", "team", jan1, quantity=2)
    engine.subscriptions.change(sub, date(2024, 1, 1), quantity=4)
    assert sub.quantity == 4
    assert [l.amount.amount for l in sub.pending_lines] == [-24, 48]


def test_change_during_trial_is_free(engine, jan1):
    sub = engine.subscriptions.create("acme", "trial", jan1)
    engine.subscriptions.change(sub, date(2024, 1, 5), plan_code="pro")
    assert sub.plan_code == "pro" and sub.pending_lines == []
