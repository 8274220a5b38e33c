"""Closed date ranges."""
from datetime import date, timedelta

ONE_DAY = timedelta(days=1)


class DateRange:
    """The days from ``start`` to ``end``, both inclusive.

    ``DateRange(date(2024, 1, 1), date(2024, 1, 31))`` is the whole of January: it has 31 days,
    and iterating yields every one of them, the 31st included. A single-day range has
    ``start == end``.
    """

    def __init__(self, start, end):
        if not isinstance(start, date) or not isinstance(end, date):
            raise TypeError("start and end must be dates")
        if end < start:
            raise ValueError(f"range ends ({end}) before it starts ({start})")
        self.start = start
        self.end = end

    def __repr__(self):
        return f"DateRange({self.start.isoformat()}, {self.end.isoformat()})"

    def __eq__(self, other):
        return isinstance(other, DateRange) and (self.start, self.end) == (other.start, other.end)

    def __hash__(self):
        return hash((self.start, self.end))

    def __len__(self):
        """Number of days in the range."""
        return (self.end - self.start).days

    def __iter__(self):
        day = self.start
        while day < self.end:
            yield day
            day += ONE_DAY

    def __contains__(self, day):
        return self.start <= day <= self.end

    def overlaps(self, other):
        """True when the two ranges share at least one day."""
        return self.start <= other.end and other.start <= self.end

    def intersection(self, other):
        """The shared days as a DateRange, or None."""
        if not self.overlaps(other):
            return None
        return DateRange(max(self.start, other.start), min(self.end, other.end))

    def months(self):
        """Split into per-calendar-month DateRanges, in order."""
        parts = []
        start = self.start
        while start <= self.end:
            next_month = date(start.year + start.month // 12, start.month % 12 + 1, 1)
            end = min(self.end, next_month - ONE_DAY)
            parts.append(DateRange(start, end))
            start = end + ONE_DAY
        return parts
