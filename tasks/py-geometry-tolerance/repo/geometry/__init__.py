"""geometry: 2-D points, segments and simple polygons with floating-point tolerance."""
from .containment import point_in_polygon
from .points import Point, almost_equal, distance
from .polygons import area, centroid, is_clockwise, is_convex, perimeter
from .segments import on_segment, orientation, segments_intersect

__all__ = [
    "Point", "almost_equal", "area", "centroid", "distance", "is_clockwise", "is_convex",
    "on_segment", "orientation", "perimeter", "point_in_polygon", "segments_intersect",
]
