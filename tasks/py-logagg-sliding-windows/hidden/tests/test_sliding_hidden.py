from datetime import datetime, timezone

import pytest

import logagg
from logagg import aggregate, render_table, tumbling_windows


def at(hour, minute, second=0):
    return datetime(2025, 5, 1, hour, minute, second, tzinfo=timezone.utc)


def counts(windows):
    return {start: len(group) for start, group in windows.items()}


def test_two_minute_windows_every_minute(records):
    assert counts(logagg.sliding_windows(records, 120, 60)) == {
        at(9, 59): 2, at(10, 0): 4, at(10, 1): 3, at(10, 2): 1, at(10, 3): 1, at(10, 4): 1
    }


def test_window_end_is_exclusive(records):
    windows = logagg.sliding_windows(records, 120, 60)
    assert [r.timestamp for r in windows[at(10, 2)]] == [at(10, 2, 59)]


def test_records_keep_input_order(records):
    windows = logagg.sliding_windows(records, 120, 60)
    assert [r.latency_ms for r in windows[at(10, 1)]] == [900, 15, 60]


def test_step_equal_to_size_is_tumbling(records):
    assert logagg.sliding_windows(records, 60, 60) == tumbling_windows(records, 60)


def test_five_minute_windows_every_two_and_a_half(records):
    assert counts(logagg.sliding_windows(records, 300, 150)) == {at(9, 57, 30): 4, at(10, 0): 6, at(10, 2, 30): 2}


def test_size_must_be_multiple_of_step(records):
    with pytest.raises(ValueError):
        logagg.sliding_windows(records, 100, 60)


def test_step_must_be_positive(records):
    with pytest.raises(ValueError):
        logagg.sliding_windows(records, 60, 0)


def test_empty_input():
    assert logagg.sliding_windows([], 60, 30) == {}


def test_aggregate_with_step(records):
    stats = aggregate(records, 120, step=60)
    assert [s.requests for s in stats.values()] == [2, 4, 3, 1, 1, 1]


def test_aggregate_with_step_and_service(records):
    stats = aggregate(records, 120, service="web", step=60)
    assert {start: s.requests for start, s in stats.items()} == {at(10, 0): 1, at(10, 1): 1}


def test_render_sliding(records):
    assert render_table(aggregate(records, 120, step=60)).splitlines()[1:3] == [
        "2025-05-01 09:59:00     2   0.0    80   120",
        "2025-05-01 10:00:00     4  25.0    80   900",
    ]


def test_tumbling_default_unchanged(records):
    assert counts(tumbling_windows(records, 120)) == {at(10, 0): 4, at(10, 2): 1, at(10, 4): 1}
