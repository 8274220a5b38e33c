"""Calendar arithmetic on datetime.date values."""
import calendar
from datetime import date, timedelta


def days_in_month(year, month):
    return calendar.monthrange(year, month)[1]


def month_index(year, month):
    """Months since year 0, so that month arithmetic is plain integer arithmetic."""
    return year * 12 + (month - 1)


def from_month_index(index):
    """Inverse of month_index: (year, month)."""
    year, month0 = divmod(index, 12)
    return year, month0 + 1


def clamp_day(year, month, day):
    """The date (year, month, day), moved back to the month's last day if the month is shorter.

    Used for "last day of the month" style rules, where the end of a short month is wanted.
    """
    return date(year, month, min(day, days_in_month(year, month)))


def month_day(year, month, day):
    """The date for a BYMONTHDAY value: 1..31 from the start, -1..-31 from the end of the month.

    Returns None when the month has no such day (e.g. 31 in April).
    """
    length = days_in_month(year, month)
    if day < 0:
        day = length + 1 + day
    if not 1 <= day <= length:
        return None
    return date(year, month, day)


def shift_months(start, months):
    """`start` moved by `months` calendar months, keeping its day of the month.

    Returns None when the target month has no such day (Jan 31 + 1 month, Feb 29 + 12 months
    in a common year): RFC 5545 says such recurrences are skipped, not moved.
    """
    year, month = from_month_index(month_index(start.year, start.month) + months)
    return clamp_day(year, month, start.day)


def start_of_week(day):
    """The Monday of the week `day` falls in."""
    return day - timedelta(days=day.weekday())
