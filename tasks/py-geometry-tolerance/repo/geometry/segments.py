"""Orientation tests and segment predicates."""

EPS = 1e-9


def cross(o, a, b):
    """z-component of ``(a - o) x (b - o)``."""
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)


def orientation(a, b, c):
    """1 when ``a, b, c`` turn counter-clockwise, -1 clockwise, 0 when (nearly) collinear."""
    value = cross(a, b, c)
    if abs(value) <= EPS:
        return 0
    return 1 if value > 0 else -1


def on_segment(p, a, b):
    """True when ``p`` lies on the closed segment ``ab`` (within the tolerance)."""
    if orientation(a, b, p) != 0:
        return False
    return (min(a.x, b.x) - EPS <= p.x <= max(a.x, b.x) + EPS
            and min(a.y, b.y) - EPS <= p.y <= max(a.y, b.y) + EPS)


def segments_intersect(p1, p2, q1, q2):
    """True when the closed segments ``p1p2`` and ``q1q2`` share at least one point."""
    o1, o2 = orientation(p1, p2, q1), orientation(p1, p2, q2)
    o3, o4 = orientation(q1, q2, p1), orientation(q1, q2, p2)
    if o1 != o2 and o3 != o4 and 0 not in (o1, o2, o3, o4):
        return True
    return (on_segment(q1, p1, p2) or on_segment(q2, p1, p2)
            or on_segment(p1, q1, q2) or on_segment(p2, q1, q2)
            or (o1 != o2 and o3 != o4))
