"""Parse textual ranges such as ``2024-01-01..2024-01-31`` or ``2024-03``."""
import re
from datetime import date

from .ranges import DateRange, ONE_DAY

_MONTH_RE = re.compile(r"^(\d{4})-(\d{2})$")


def parse_range(text):
    """``"A..B"`` (ISO dates, inclusive), ``"YYYY-MM"`` (whole month) or a single ISO date."""
    text = text.strip()
    if ".." in text:
        start, _, end = text.partition("..")
        return DateRange(date.fromisoformat(start.strip()), date.fromisoformat(end.strip()))
    match = _MONTH_RE.match(text)
    if match:
        year, month = int(match.group(1)), int(match.group(2))
        first = date(year, month, 1)
        following = date(year + month // 12, month % 12 + 1, 1)
        return DateRange(first, following - ONE_DAY)
    day = date.fromisoformat(text)
    return DateRange(day, day)
