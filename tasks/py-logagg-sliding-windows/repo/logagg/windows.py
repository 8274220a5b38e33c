"""Grouping records into time windows.

Windows are aligned to the Unix epoch: a window of `size` seconds starts at a multiple of
`size`, so 60-second windows start on whole minutes regardless of the first record.
"""
from datetime import datetime, timezone


def window_start(epoch, size):
    """Start (epoch seconds, int) of the `size`-second window containing `epoch`."""
    return int(epoch // size) * size


def _check_size(size):
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        raise ValueError(f"window size must be a positive number of seconds, got {size!r}")


def tumbling_windows(records, size):
    """{window start (aware UTC datetime): [records]} for non-overlapping windows of `size`
    seconds, in chronological order; windows without records are left out."""
    _check_size(size)
    buckets = {}
    for record in records:
        buckets.setdefault(window_start(record.epoch, size), []).append(record)
    return {
        datetime.fromtimestamp(start, tz=timezone.utc): buckets[start] for start in sorted(buckets)
    }
