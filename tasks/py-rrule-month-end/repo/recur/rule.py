"""The Rule value and its parser."""
from dataclasses import dataclass
from datetime import date, datetime

from .errors import RuleError

FREQUENCIES = ("DAILY", "WEEKLY", "MONTHLY", "YEARLY")
WEEKDAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")  # index == date.weekday()


@dataclass(frozen=True)
class Rule:
    freq: str
    interval: int = 1
    count: int | None = None
    until: date | None = None
    byday: tuple[int, ...] = ()  # weekday numbers, Monday = 0
    bymonthday: tuple[int, ...] = ()


def _positive_int(name, value):
    if not value.isdigit() or int(value) < 1:
        raise RuleError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def _parse_until(value):
    for fmt in ("%Y%m%d", "%Y%m%dT%H%M%SZ", "%Y%m%dT%H%M%S"):
        try:
            return datetime.strptime(value, fmt).date()
        except ValueError:
            continue
    raise RuleError(f"UNTIL must be YYYYMMDD, got {value!r}")


def parse_rule(text):
    """'FREQ=WEEKLY;BYDAY=MO,WE;COUNT=4' -> Rule. A leading 'RRULE:' is accepted."""
    text = text.strip()
    if text.upper().startswith("RRULE:"):
        text = text[6:]
    parts = {}
    for item in filter(None, text.split(";")):
        name, sep, value = item.partition("=")
        if not sep:
            raise RuleError(f"expected NAME=VALUE, got {item!r}")
        name = name.upper()
        if name in parts:
            raise RuleError(f"{name} given twice")
        parts[name] = value.upper()
    freq = parts.pop("FREQ", None)
    if freq not in FREQUENCIES:
        raise RuleError(f"FREQ must be one of {', '.join(FREQUENCIES)}, got {freq!r}")
    kwargs = {"freq": freq}
    if "INTERVAL" in parts:
        kwargs["interval"] = _positive_int("INTERVAL", parts.pop("INTERVAL"))
    if "COUNT" in parts:
        kwargs["count"] = _positive_int("COUNT", parts.pop("COUNT"))
    if "UNTIL" in parts:
        kwargs["until"] = _parse_until(parts.pop("UNTIL"))
    if "count" in kwargs and "until" in kwargs:
        raise RuleError("COUNT and UNTIL cannot both be given")
    if "BYDAY" in parts:
        if freq != "WEEKLY":
            raise RuleError("BYDAY is only supported with FREQ=WEEKLY")
        days = parts.pop("BYDAY").split(",")
        unknown = [d for d in days if d not in WEEKDAYS]
        if unknown:
            raise RuleError(f"unknown weekday {unknown[0]!r}")
        kwargs["byday"] = tuple(sorted({WEEKDAYS.index(d) for d in days}))
    if "BYMONTHDAY" in parts:
        if freq != "MONTHLY":
            raise RuleError("BYMONTHDAY is only supported with FREQ=MONTHLY")
        try:
            days = [int(d) for d in parts.pop("BYMONTHDAY").split(",")]
        except ValueError as exc:
            raise RuleError(f"BYMONTHDAY must be integers: {exc}") from None
        if any(d == 0 or not -31 <= d <= 31 for d in days):
            raise RuleError("BYMONTHDAY values must be 1..31 or -31..-1")
        kwargs["bymonthday"] = tuple(days)
    if parts:
        raise RuleError(f"unsupported rule part {sorted(parts)[0]}")
    return Rule(**kwargs)
