"""Statistics of one window."""
import math
from dataclasses import dataclass


@dataclass(frozen=True)
class WindowStats:
    requests: int
    errors: int  # status >= 500
    error_rate: float  # errors / requests, 0.0 for no requests
    p50_ms: int
    p95_ms: int
    max_ms: int


def percentile(values, fraction):
    """Nearest-rank percentile of a non-empty list: the smallest value with at least
    `fraction` of the values at or below it."""
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def summarize(records):
    if not records:
        return WindowStats(0, 0, 0.0, 0, 0, 0)
    latencies = [r.latency_ms for r in records]
    errors = sum(1 for r in records if r.status >= 500)
    return WindowStats(
        requests=len(records),
        errors=errors,
        error_rate=errors / len(records),
        p50_ms=percentile(latencies, 0.50),
        p95_ms=percentile(latencies, 0.95),
        max_ms=max(latencies),
    )
