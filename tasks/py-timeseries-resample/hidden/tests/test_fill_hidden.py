from datetime import datetime, timedelta

import pytest

from tseries import FILLS, Series, upsample

MIN = timedelta(minutes=1)


def at(minute, second=0):
    return datetime(2025, 5, 1, 12, minute, second)


TWO = Series([(at(0), 10.0), (at(4), 20.0)])


def test_linear_between_two_samples():
    assert upsample(TWO, MIN, fill="linear").values() == [10.0, 12.5, 15.0, 17.5, 20.0]


def test_linear_keeps_timestamps():
    assert upsample(TWO, 2 * MIN, fill="linear").points == [(at(0), 10.0), (at(2), 15.0), (at(4), 20.0)]


def test_linear_uses_off_grid_samples():
    s = Series([(at(0), 0.0), (at(1, 30), 30.0), (at(3), 0.0)])
    assert upsample(s, MIN, fill="linear").values() == [0.0, 20.0, 20.0, 0.0]


def test_linear_decreasing():
    s = Series([(at(0), 8.0), (at(2), 4.0), (at(4), 4.0)])
    assert upsample(s, MIN, fill="linear").values() == [8.0, 6.0, 4.0, 4.0, 4.0]


def test_bfill():
    s = Series([(at(0), 1.0), (at(3), 4.0)])
    assert upsample(s, MIN, fill="bfill").values() == [1.0, 4.0, 4.0, 4.0]


def test_bfill_off_grid_sample():
    s = Series([(at(0), 1.0), (at(1, 30), 7.0), (at(3), 4.0)])
    assert upsample(s, MIN, fill="bfill").values() == [1.0, 7.0, 4.0, 4.0]


def test_fills_advertised():
    assert set(FILLS) == {"ffill", "bfill", "linear", None}


def test_ffill_unchanged():
    s = Series([(at(0), 1.0), (at(1, 30), 7.0), (at(3), 4.0)])
    assert upsample(s, MIN).values() == [1.0, 1.0, 7.0, 4.0]


def test_unknown_fill_still_rejected():
    with pytest.raises(ValueError):
        upsample(TWO, MIN, fill="cubic")


def test_single_sample():
    assert upsample(Series([(at(0), 5.0)]), MIN, fill="linear").values() == [5.0]
