"""Point-in-polygon by ray casting."""
from .segments import on_segment


def point_in_polygon(point, vertices, boundary=True):
    """True when ``point`` is inside the polygon.

    Points on an edge (within the tolerance) count as inside when ``boundary`` is true.
    """
    n = len(vertices)
    for i in range(n):
        if on_segment(point, vertices[i], vertices[(i + 1) % n]):
            return boundary
    inside = False
    for i in range(n):
        a, b = vertices[i], vertices[(i + 1) % n]
        if (a.y > point.y) != (b.y > point.y):
            x_cross = a.x + (point.y - a.y) * (b.x - a.x) / (b.y - a.y)
            if point.x < x_cross:
                inside = not inside
    return inside
