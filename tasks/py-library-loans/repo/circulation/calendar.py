"""Which days the branch is open."""
from datetime import date, timedelta


class LibraryCalendar:
    """Opening days: every day except ``closed_weekdays`` (0 = Monday) and ``holidays``."""

    def __init__(self, closed_weekdays=(), holidays=()):
        self.closed_weekdays = frozenset(closed_weekdays)
        self.holidays = frozenset(holidays)

    @classmethod
    def from_config(cls, config):
        """A calendar from the admin panel's config (holidays as ISO ``YYYY-MM-DD`` strings)."""
        return cls(config.get("closed_weekdays", ()), config.get("holidays", ()))

    def is_open(self, day):
        """True when the branch is open on ``day``."""
        return day.weekday() not in self.closed_weekdays and day not in self.holidays

    def next_open_day(self, day):
        """``day`` itself when open, else the first open day after it."""
        for _ in range(366):
            if self.is_open(day):
                return day
            day += timedelta(days=1)
        raise ValueError("no open day within a year")

    def open_days_between(self, start, end):
        """Number of open days in ``(start, end]``: after ``start``, up to and including ``end``."""
        count = 0
        day = start + timedelta(days=1)
        while day <= end:
            if self.is_open(day):
                count += 1
            day += timedelta(days=1)
        return count


def parse_day(text):
    """``date`` from an ISO ``YYYY-MM-DD`` string."""
    return date.fromisoformat(text)
