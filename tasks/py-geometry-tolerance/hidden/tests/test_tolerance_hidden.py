import importlib

import pytest

import geometry
from geometry import (Point, almost_equal, centroid, is_convex, on_segment, orientation,
                      point_in_polygon, segments_intersect)


def _module():
    return importlib.import_module("geometry.tolerance")


def get_epsilon():
    return _module().get_epsilon()


def set_epsilon(eps):
    return _module().set_epsilon(eps)


def tolerance(eps):
    return _module().tolerance(eps)

SQUARE = [Point(0, 0), Point(4, 0), Point(4, 4), Point(0, 4)]


def test_default_epsilon():
    assert get_epsilon() == 1e-9


def test_almost_equal_follows_tolerance():
    with tolerance(1e-3):
        assert almost_equal(Point(0, 0), Point(0.0005, 0)) is True


def test_orientation_follows_tolerance():
    with tolerance(1e-3):
        assert orientation(Point(0, 0), Point(1, 0), Point(2, 0.0004)) == 0


def test_on_segment_follows_tolerance():
    with tolerance(1e-3):
        assert on_segment(Point(1, 0.0004), Point(0, 0), Point(2, 0)) is True


def test_boundary_follows_tolerance():
    with tolerance(1e-2):
        assert point_in_polygon(Point(4.001, 2), SQUARE, boundary=True) is True


def test_convexity_follows_tolerance():
    nearly_straight = [Point(0, 0), Point(2, -0.0001), Point(4, 0), Point(4, 4), Point(0, 4)]
    with tolerance(1e-3):
        assert is_convex(nearly_straight) is True


def test_centroid_follows_tolerance():
    sliver = [Point(0, 0), Point(1, 0), Point(1, 0.0001)]
    with tolerance(1e-3):
        with pytest.raises(ValueError):
            centroid(sliver)


def test_set_epsilon_is_global():
    try:
        set_epsilon(0.5)
        assert segments_intersect(Point(0, 0), Point(1, 0), Point(0, 0.4), Point(1, 0.4)) is True
    finally:
        set_epsilon(1e-9)


def test_tolerance_restores_on_error():
    with pytest.raises(RuntimeError):
        with tolerance(0.5):
            raise RuntimeError("boom")
    assert get_epsilon() == 1e-9


def test_rejects_non_positive():
    with pytest.raises(ValueError):
        set_epsilon(0)


def test_default_behaviour_unchanged():
    assert orientation(Point(0, 0), Point(1, 0), Point(2, 0.0004)) == 1


def test_tolerance_module_reachable_from_package():
    _module()
    assert geometry.tolerance.get_epsilon() == 1e-9
