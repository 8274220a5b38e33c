"""Points and distances."""
import math
from typing import NamedTuple


class Point(NamedTuple):
    x: float
    y: float


def distance(a, b):
    """Euclidean distance between ``a`` and ``b``."""
    return math.hypot(b.x - a.x, b.y - a.y)


def almost_equal(a, b):
    """True when ``a`` and ``b`` are closer than the tolerance in both coordinates."""
    return abs(a.x - b.x) <= 1e-9 and abs(a.y - b.y) <= 1e-9
