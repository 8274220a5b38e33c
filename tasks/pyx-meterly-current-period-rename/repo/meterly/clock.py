"""Calendar helpers: billing periods, month arithmetic and the clock the engine reads.

A ``Period`` is half-open: it contains ``start`` and stops before ``end``, so consecutive
periods share a boundary day without overlapping.
"""

import calendar
from dataclasses import dataclass
from datetime import date, datetime


def days_in_month(year, month):
    return calendar.monthrange(year, month)[1]


def add_months(day, months, anchor_day=None):
    """``day`` moved by ``months`` calendar months.

    The day of month is ``anchor_day`` (default: ``day.day``), clamped to the length of the
    target month, so Jan 31 + 1 month is Feb 28 (or 29) and, with ``anchor_day=31``, Feb 28 + 1
    month is Mar 31 again.
    """
    wanted = anchor_day if anchor_day is not None else day.day
    index = day.year * 12 + (day.month - 1) + months
    year, month = divmod(index, 12)
    month += 1
    return date(year, month, min(wanted, days_in_month(year, month)))


@dataclass(frozen=True)
class Period:
    """The days from ``start`` (included) to ``end`` (excluded)."""

    start: date
    end: date

    def __post_init__(self):
        if self.end <= self.start:
            raise ValueError(f"period must end after it starts: {self.start} .. {self.end}")

    @property
    def days(self):
        return (self.end - self.start).days

    def contains(self, moment):
        """True when a date (or the date of a datetime) falls inside the period."""
        if isinstance(moment, datetime):
            moment = moment.date()
        return self.start <= moment < self.end

    def days_from(self, day):
        """Days of the period left on ``day``, ``day`` included (0 after the period)."""
        if day <= self.start:
            return self.days
        if day >= self.end:
            return 0
        return (self.end - day).days

    def __str__(self):
        return f"{self.start.isoformat()}..{self.end.isoformat()}"


def billing_period(start, interval_months, anchor_day=None):
    """The period that starts on ``start`` and lasts ``interval_months`` months."""
    return Period(start, add_months(start, interval_months, anchor_day))


def next_period(period, interval_months, anchor_day=None):
    """The period right after ``period``."""
    return billing_period(period.end, interval_months, anchor_day)


class SystemClock:
    """The real calendar."""

    def today(self):
        return date.today()


class FixedClock:
    """A clock that says what it is told; ``set`` moves it."""

    def __init__(self, today):
        self._today = today

    def today(self):
        return self._today

    def set(self, today):
        self._today = today
