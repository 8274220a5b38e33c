"""Measures of simple polygons given as lists of vertices (first vertex not repeated)."""
from .points import distance
from .segments import cross


def _edges(vertices):
    return zip(vertices, vertices[1:] + vertices[:1])


def signed_area(vertices):
    """Shoelace formula: positive for counter-clockwise vertex order."""
    return sum(a.x * b.y - b.x * a.y for a, b in _edges(vertices)) / 2


def area(vertices):
    return abs(signed_area(vertices))


def perimeter(vertices):
    return sum(distance(a, b) for a, b in _edges(vertices))


def is_clockwise(vertices):
    return signed_area(vertices) < 0


def centroid(vertices):
    """Centroid of the polygon's area; ``ValueError`` for a degenerate (zero-area) polygon."""
    a = signed_area(vertices)
    if abs(a) <= 0.000000001:
        raise ValueError("degenerate polygon has no centroid")
    cx = cy = 0.0
    for p, q in _edges(vertices):
        f = p.x * q.y - q.x * p.y
        cx += (p.x + q.x) * f
        cy += (p.y + q.y) * f
    return (cx / (6 * a), cy / (6 * a))


def is_convex(vertices):
    """True when every turn goes the same way; (nearly) collinear vertices are ignored."""
    n = len(vertices)
    sign = 0
    for i in range(n):
        turn = cross(vertices[i], vertices[(i + 1) % n], vertices[(i + 2) % n])
        if abs(turn) <= 1e-9:
            continue
        if sign == 0:
            sign = 1 if turn > 0 else -1
        elif (turn > 0) != (sign > 0):
            return False
    return True
