"""The Series type: ``(timestamp, value)`` points in time order."""


class Series:
    """An immutable series of ``(datetime, value)`` points sorted by time, no duplicates."""

    def __init__(self, points):
        points = sorted(points, key=lambda p: p[0])
        for (a, _), (b, _) in zip(points, points[1:]):
            if a == b:
                raise ValueError(f"duplicate timestamp {a.isoformat()}")
        self._points = tuple(points)

    @property
    def points(self):
        return list(self._points)

    def timestamps(self):
        return [t for t, _ in self._points]

    def values(self):
        return [v for _, v in self._points]

    def __len__(self):
        return len(self._points)

    def __eq__(self, other):
        return isinstance(other, Series) and self._points == other._points

    def __repr__(self):
        return f"Series({list(self._points)!r})"
