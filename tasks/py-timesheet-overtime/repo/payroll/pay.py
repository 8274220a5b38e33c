"""Weekly and total pay in cents."""
from timesheet import group_by_week

from .rules import OvertimeRule


def _cents(minutes, hourly_cents, multiplier=1.0):
    return round(minutes * hourly_cents * multiplier / 60)


def weekly_pay(entries, hourly_cents, rule=OvertimeRule()):
    """Pay per week, keyed like `timesheet.group_by_week`."""
    result = {}
    for key, week in group_by_week(entries).items():
        regular, overtime = rule.split(sum(e.minutes for e in week))
        result[key] = _cents(regular, hourly_cents) + _cents(overtime, hourly_cents, rule.multiplier)
    return result


def total_pay(entries, hourly_cents, rule=OvertimeRule()):
    """Pay for the whole timesheet."""
    return sum(weekly_pay(entries, hourly_cents, rule).values())
