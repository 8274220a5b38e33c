"""Cron schedules: matching datetimes and finding the next run."""
from datetime import datetime, timedelta

from .errors import CronError
from .fields import parse_fields
from .names import ALIASES

#: How far ahead next_run searches before deciding the schedule never fires.
SEARCH_LIMIT = timedelta(days=366 * 5)


def cron_weekday(day):
    """Cron numbering of a date's weekday: 0 = Sunday ... 6 = Saturday."""
    return day.isoweekday()


class CronSchedule:
    """A parsed expression such as ``"*/15 9-17 * * mon-fri"`` or ``"@daily"``.

    When both day-of-month and day-of-week are restricted, a day matches if *either* matches
    (classic Vixie cron behaviour).
    """

    def __init__(self, expression):
        self.expression = expression.strip()
        text = ALIASES.get(self.expression.lower(), self.expression)
        parts = text.split()
        self.minutes, self.hours, self.days, self.months, self.weekdays = parse_fields(parts)
        self._any_day = parts[2] == "*"
        self._any_weekday = parts[4] == "*"

    def __repr__(self):
        return f"CronSchedule({self.expression!r})"

    def day_matches(self, day):
        in_month = day.day in self.days
        in_week = cron_weekday(day) in self.weekdays
        if self._any_day and self._any_weekday:
            return True
        if self._any_day:
            return in_week
        if self._any_weekday:
            return in_month
        return in_month or in_week

    def matches(self, moment):
        return (moment.month in self.months and self.day_matches(moment.date())
                and moment.hour in self.hours and moment.minute in self.minutes)

    def next_run(self, after):
        """The first matching minute strictly after ``after`` (seconds are ignored)."""
        moment = after.replace(second=0, microsecond=0) + timedelta(minutes=1)
        limit = after + SEARCH_LIMIT
        while moment <= limit:
            if moment.month not in self.months:
                year, month = divmod(moment.month, 12)
                moment = datetime(moment.year + year, month + 1, 1)
            elif not self.day_matches(moment.date()):
                moment = datetime(moment.year, moment.month, moment.day) + timedelta(days=1)
            elif moment.hour not in self.hours:
                moment = moment.replace(minute=0) + timedelta(hours=1)
            elif moment.minute not in self.minutes:
                moment += timedelta(minutes=1)
            else:
                return moment
        raise CronError(f"{self.expression!r} does not fire within {SEARCH_LIMIT.days} days")

    def upcoming(self, after, count):
        """The next ``count`` run times after ``after``."""
        runs = []
        for _ in range(count):
            after = self.next_run(after)
            runs.append(after)
        return runs
