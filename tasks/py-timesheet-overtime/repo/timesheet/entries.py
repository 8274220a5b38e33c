"""One line per shift: `YYYY-MM-DD HH:MM-HH:MM [note]`."""
from dataclasses import dataclass
from datetime import date, datetime


@dataclass(frozen=True)
class Entry:
    day: date
    minutes: int
    note: str = ""


def _minutes(text):
    hours, minutes = text.split(":")
    return int(hours) * 60 + int(minutes)


def parse_entries(text):
    """Parse a timesheet; blank lines and `#` comments are ignored."""
    entries = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split(maxsplit=2)
        if len(parts) < 2 or "-" not in parts[1]:
            raise ValueError(f"line {number}: expected 'YYYY-MM-DD HH:MM-HH:MM', got {raw!r}")
        day = datetime.strptime(parts[0], "%Y-%m-%d").date()
        start, end = (_minutes(t) for t in parts[1].split("-"))
        if end <= start:
            end += 24 * 60  # a night shift ends the next day
        entries.append(Entry(day, end - start, parts[2] if len(parts) > 2 else ""))
    return entries
