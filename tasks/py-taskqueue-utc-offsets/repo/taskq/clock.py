"""Parsing of timestamps and durations. Every datetime inside taskq is timezone-aware UTC."""
import re
from datetime import datetime, timedelta, timezone

_DURATION = re.compile(r"^(?:(\d+)h)?\s*(?:(\d+)m)?$")


def parse_time(text):
    """ISO 8601 timestamp -> aware datetime in UTC.

    '2025-05-01T09:00Z', '2025-05-01T11:00+02:00' and '2025-05-01 09:00' (naive, taken as UTC)
    all denote the same instant.
    """
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"invalid timestamp {text!r}") from None
    # Naive timestamps are UTC by convention; store everything as UTC.
    return moment.replace(tzinfo=timezone.utc)


def parse_duration(text):
    """'1h30m', '90m', '2h' -> timedelta. Zero durations are rejected."""
    match = _DURATION.match(text.strip())
    if not match or not any(match.groups()):
        raise ValueError(f"invalid duration {text!r}; use e.g. '45m' or '1h30m'")
    hours, minutes = (int(g) if g else 0 for g in match.groups())
    duration = timedelta(hours=hours, minutes=minutes)
    if not duration:
        raise ValueError("duration must be positive")
    return duration


def utc(year, month, day, hour=0, minute=0):
    """Shorthand for an aware UTC datetime."""
    return datetime(year, month, day, hour, minute, tzinfo=timezone.utc)
