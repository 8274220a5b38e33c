"""Putting it together: windows -> stats -> a text table."""
from .stats import summarize
from .windows import tumbling_windows


def aggregate(records, size, service=None):
    """{window start: WindowStats} over `size`-second windows, optionally for one service."""
    if service is not None:
        records = [r for r in records if r.service == service]
    return {start: summarize(group) for start, group in tumbling_windows(records, size).items()}


def render_table(stats_by_window):
    """One line per window: start time, requests, error rate (%), p50, p95."""
    lines = ["window               reqs  err%   p50   p95"]
    for start, stats in stats_by_window.items():
        lines.append(
            f"{start:%Y-%m-%d %H:%M:%S}  {stats.requests:4d}  {100 * stats.error_rate:4.1f}"
            f"  {stats.p50_ms:4d}  {stats.p95_ms:4d}"
        )
    return "\n".join(lines)
