from datetime import datetime, timezone

import pytest

from logagg import aggregate, render_table, summarize, tumbling_windows


def at(hour, minute, second=0):
    return datetime(2025, 5, 1, hour, minute, second, tzinfo=timezone.utc)


def test_tumbling_minutes(records):
    windows = tumbling_windows(records, 60)
    assert [(start, len(group)) for start, group in windows.items()] == [
        (at(10, 0), 2), (at(10, 1), 2), (at(10, 2), 1), (at(10, 4), 1)
    ]


def test_windows_aligned_to_epoch(records):
    assert list(tumbling_windows(records, 300)) == [at(10, 0)]


def test_bad_size(records):
    with pytest.raises(ValueError):
        tumbling_windows(records, 0)


def test_summarize(records):
    stats = summarize(records)
    assert (stats.requests, stats.errors, stats.p50_ms, stats.p95_ms, stats.max_ms) == (6, 1, 60, 900, 900)


def test_aggregate_by_service(records):
    stats = aggregate(records, 120, service="api")
    assert {start: s.requests for start, s in stats.items()} == {at(10, 0): 3, at(10, 2): 1, at(10, 4): 1}


def test_render_table(records):
    assert render_table(aggregate(records, 120)).splitlines() == [
        "window               reqs  err%   p50   p95",
        "2025-05-01 10:00:00     4  25.0    80   900",
        "2025-05-01 10:02:00     1   0.0    60    60",
        "2025-05-01 10:04:00     1   0.0     5     5",
    ]
