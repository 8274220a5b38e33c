from datetime import timedelta

import pytest

from taskq import DeadlineQueue, EmptyQueueError, Task
from taskq.clock import utc

HOUR = timedelta(hours=1)


def names(tasks):
    return [t.name for t in tasks]


def test_earliest_deadline_first():
    q = DeadlineQueue([
        Task("b", HOUR, utc(2025, 5, 2)),
        Task("a", HOUR, utc(2025, 5, 1)),
        Task("c", HOUR, utc(2025, 5, 3)),
    ])
    assert names(q.drain()) == ["a", "b", "c"]


def test_ties_by_priority_then_fifo():
    due = utc(2025, 5, 1, 12)
    q = DeadlineQueue([Task("low", HOUR, due), Task("high", HOUR, due, 5), Task("low2", HOUR, due)])
    assert names(q.drain()) == ["high", "low", "low2"]


def test_no_deadline_last():
    q = DeadlineQueue([Task("someday", HOUR, priority=9), Task("due", HOUR, utc(2030, 1, 1))])
    assert names(q.drain()) == ["due", "someday"]


def test_empty():
    with pytest.raises(EmptyQueueError):
        DeadlineQueue().pop()


def test_overdue():
    q = DeadlineQueue([Task("old", HOUR, utc(2025, 1, 1)), Task("new", HOUR, utc(2025, 12, 1))])
    assert q.overdue(utc(2025, 6, 1)) == ["old"]


def test_naive_deadline_rejected():
    from datetime import datetime
    with pytest.raises(ValueError):
        Task("x", HOUR, datetime(2025, 1, 1))
