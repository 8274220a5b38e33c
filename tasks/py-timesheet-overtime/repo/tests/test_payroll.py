from datetime import date

import pytest

from payroll import OvertimeRule, total_pay, weekly_pay
from timesheet import parse_entries

WEEK = """
2025-03-03 09:00-17:00
2025-03-04 09:00-17:00
2025-03-05 09:00-17:00  # standup moved
2025-03-06 09:00-17:00
2025-03-07 09:00-19:00 release
"""


def test_parse_entries_reads_notes_and_skips_comments():
    entries = parse_entries(WEEK)
    assert len(entries) == 5
    assert entries[4].note == "release"
    assert entries[4].minutes == 600


def test_night_shift_ends_next_day():
    [entry] = parse_entries("2025-03-03 22:00-06:00")
    assert entry.minutes == 480


def test_parse_error_names_the_line():
    with pytest.raises(ValueError, match="line 2"):
        parse_entries("2025-03-03 09:00-17:00\nnonsense")


def test_overtime_past_forty_hours():
    # 42 hours at 20.00/h: 40 regular, 2 at 1.5x.
    assert total_pay(parse_entries(WEEK), 2000) == 40 * 2000 + 2 * 3000


def test_custom_rule():
    rule = OvertimeRule(weekly_threshold_minutes=35 * 60, multiplier=2.0)
    assert total_pay(parse_entries(WEEK), 1000, rule) == 35 * 1000 + 7 * 2000


def test_weekly_pay_has_one_entry_per_week():
    text = WEEK + "2025-03-10 09:00-17:00\n"
    assert len(weekly_pay(parse_entries(text), 1000)) == 2
    assert parse_entries(text)[-1].day == date(2025, 3, 10)
