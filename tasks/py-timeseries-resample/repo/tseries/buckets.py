"""Fixed-width time buckets."""
from datetime import datetime, timedelta

EPOCH = datetime(1970, 1, 1)


def bucket_start(ts, every, origin=EPOCH):
    """Start of the ``every``-wide bucket containing ``ts``; buckets are aligned on ``origin``."""
    if every <= timedelta(0):
        raise ValueError("the bucket width must be positive")
    return ts - (ts - origin) % every
