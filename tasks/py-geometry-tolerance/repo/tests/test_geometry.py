import pytest

from geometry import (Point, almost_equal, area, centroid, is_clockwise, is_convex, on_segment,
                      orientation, perimeter, point_in_polygon, segments_intersect)

SQUARE = [Point(0, 0), Point(4, 0), Point(4, 4), Point(0, 4)]
L_SHAPE = [Point(0, 0), Point(4, 0), Point(4, 1), Point(1, 1), Point(1, 4), Point(0, 4)]


def test_area_and_perimeter():
    assert area(SQUARE) == 16
    assert area(L_SHAPE) == 7
    assert perimeter(SQUARE) == 16


def test_orientation_and_clockwise():
    assert orientation(Point(0, 0), Point(1, 0), Point(1, 1)) == 1
    assert orientation(Point(0, 0), Point(1, 1), Point(2, 2)) == 0
    assert is_clockwise(SQUARE[::-1])


def test_centroid():
    assert centroid(SQUARE) == (2.0, 2.0)
    with pytest.raises(ValueError):
        centroid([Point(0, 0), Point(1, 1), Point(2, 2)])


def test_convexity():
    assert is_convex(SQUARE)
    assert not is_convex(L_SHAPE)
    assert is_convex([Point(0, 0), Point(2, 0), Point(4, 0), Point(4, 4)])


def test_point_in_polygon():
    assert point_in_polygon(Point(2, 2), SQUARE)
    assert not point_in_polygon(Point(3, 3), L_SHAPE)
    assert point_in_polygon(Point(4, 2), SQUARE)
    assert not point_in_polygon(Point(4, 2), SQUARE, boundary=False)


def test_segments():
    assert on_segment(Point(1, 1), Point(0, 0), Point(2, 2))
    assert segments_intersect(Point(0, 0), Point(2, 2), Point(0, 2), Point(2, 0))
    assert not segments_intersect(Point(0, 0), Point(1, 0), Point(0, 1), Point(1, 1))


def test_almost_equal_default_tolerance():
    assert almost_equal(Point(0.1 + 0.2, 0), Point(0.3, 0))
    assert not almost_equal(Point(0, 0), Point(1e-6, 0))
