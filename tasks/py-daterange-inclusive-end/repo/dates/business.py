"""Business days: Monday to Friday, minus holidays."""
from datetime import timedelta

ONE_DAY = timedelta(days=1)


def is_business_day(day, holidays=()):
    """Weekdays that are not in ``holidays``."""
    return day.weekday() < 5 and day not in holidays


def business_days(date_range, holidays=()):
    """Count the business days in a :class:`~dates.ranges.DateRange` (both ends inclusive)."""
    holidays = frozenset(holidays)
    count = 0
    day = date_range.start
    while day < date_range.end:
        if is_business_day(day, holidays):
            count += 1
        day += ONE_DAY
    return count


def add_business_days(day, count, holidays=()):
    """The date ``count`` business days after ``day`` (before it when ``count`` is negative)."""
    holidays = frozenset(holidays)
    step = ONE_DAY if count >= 0 else -ONE_DAY
    remaining = abs(count)
    while remaining:
        day += step
        if is_business_day(day, holidays):
            remaining -= 1
    return day
