from datetime import date

from payroll import total_pay, weekly_pay
from timesheet import group_by_week, parse_entries, week_key

# 40 hours in ISO week 1 of 2025 and 40 hours in ISO week 1 of 2026: no overtime in either.
TWO_YEARS = "\n".join(
    [f"2024-12-{d} 08:00-16:00" for d in (30, 31)]
    + [f"2025-01-0{d} 08:00-16:00" for d in (1, 2, 3)]
    + [f"2025-12-{d} 08:00-16:00" for d in (29, 30, 31)]
    + [f"2026-01-0{d} 08:00-16:00" for d in (1, 2)]
)


def test_same_week_number_in_different_years_is_not_merged():
    assert len(group_by_week(parse_entries(TWO_YEARS))) == 2


def test_no_overtime_across_the_year_boundary():
    assert total_pay(parse_entries(TWO_YEARS), 1000) == 80 * 1000


def test_week_spanning_new_year_is_one_week():
    # Monday 2024-12-30 to Sunday 2025-01-05 is ISO week 1 of 2025.
    assert week_key(date(2024, 12, 30)) == week_key(date(2025, 1, 5))


def test_weekly_pay_keys_tell_years_apart():
    keys = list(weekly_pay(parse_entries(TWO_YEARS), 1000))
    assert keys[0] != keys[1]


def test_ordinary_week_unchanged():
    text = "\n".join(f"2025-03-0{d} 09:00-17:00" for d in (3, 4, 5, 6, 7))
    assert total_pay(parse_entries(text), 1000) == 40 * 1000
