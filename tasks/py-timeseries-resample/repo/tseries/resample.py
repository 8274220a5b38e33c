"""Resampling to a regular grid: fewer points (downsample) or more (upsample)."""
from datetime import timedelta

from .aggregate import aggregation
from .buckets import EPOCH, bucket_start
from .series import Series

#: Ways :func:`upsample` fills grid points that have no sample.
FILLS = ("ffill", None)


def downsample(series, every, how="mean", origin=EPOCH):
    """One point per non-empty ``every``-wide bucket, stamped with the bucket start.

    ``how`` names an aggregation (see ``tseries.aggregate.AGGREGATIONS``). Empty buckets are
    left out.
    """
    combine = aggregation(how)
    buckets = {}
    for ts, value in series.points:
        buckets.setdefault(bucket_start(ts, every, origin), []).append(value)
    return Series([(start, combine(values)) for start, values in buckets.items()])


def upsample(series, every, fill="ffill"):
    """A point every ``every`` from the first sample to the last.

    Grid points that coincide with a sample take its value. The others are filled
    according to ``fill``:

    - ``"ffill"``: the value of the last sample before the point;
    - ``None``: ``None`` (a gap).
    """
    if fill not in FILLS:
        raise ValueError(f"unknown fill {fill!r}; expected one of {FILLS}")
    if every <= timedelta(0):
        raise ValueError("the step must be positive")
    points = series.points
    if not points:
        return Series([])
    out = []
    t, end = points[0][0], points[-1][0]
    i = 0  # index of the last sample at or before t
    while t <= end:
        while i + 1 < len(points) and points[i + 1][0] <= t:
            i += 1
        at, value = points[i]
        if at == t or fill == "ffill":
            out.append((t, value))
        else:
            out.append((t, None))
        t += every
    return Series(out)
