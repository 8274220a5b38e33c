from datetime import datetime, timedelta

import pytest

from tseries import Series, downsample, upsample

MIN = timedelta(minutes=1)


def at(minute, second=0):
    return datetime(2025, 5, 1, 12, minute, second)


READINGS = Series([(at(0, 10), 1.0), (at(0, 40), 3.0), (at(1, 5), 10.0), (at(3, 0), 4.0)])


def test_downsample_mean():
    assert downsample(READINGS, MIN).points == [(at(0), 2.0), (at(1), 10.0), (at(3), 4.0)]


def test_downsample_other_aggregations():
    assert downsample(READINGS, MIN, "count").values() == [2, 1, 1]
    assert downsample(READINGS, 2 * MIN, "max").values() == [10.0, 4.0]
    assert downsample(READINGS, 5 * MIN, "last").values() == [4.0]


def test_unknown_aggregation():
    with pytest.raises(ValueError, match="median"):
        downsample(READINGS, MIN, "median")


def test_upsample_ffill():
    s = Series([(at(0), 1.0), (at(3), 4.0)])
    assert upsample(s, MIN).values() == [1.0, 1.0, 1.0, 4.0]


def test_upsample_gaps():
    s = Series([(at(0), 1.0), (at(2), 4.0)])
    assert upsample(s, MIN, fill=None).values() == [1.0, None, 4.0]


def test_upsample_rejects_unknown_fill():
    with pytest.raises(ValueError):
        upsample(Series([(at(0), 1.0)]), MIN, fill="zero")


def test_duplicate_timestamps_rejected():
    with pytest.raises(ValueError):
        Series([(at(0), 1.0), (at(0), 2.0)])
