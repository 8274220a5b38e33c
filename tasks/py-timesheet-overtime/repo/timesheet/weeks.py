"""Working weeks are ISO weeks (Monday to Sunday)."""


def week_key(day):
    """The key of the ISO week `day` falls in."""
    return day.isocalendar()[1]


def group_by_week(entries):
    """Entries grouped by week, in the order their weeks first appear."""
    weeks = {}
    for entry in entries:
        weeks.setdefault(week_key(entry.day), []).append(entry)
    return weeks
