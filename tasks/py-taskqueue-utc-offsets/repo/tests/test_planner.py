import pytest

from taskq import load_tasks, parse_duration, parse_time, plan
from taskq.clock import utc

TASKS = """[
  {"name": "deploy", "duration": "1h", "deadline": "2025-05-01T12:00Z", "priority": 2},
  {"name": "review", "duration": "30m", "deadline": "2025-05-01T10:00Z"},
  {"name": "cleanup", "duration": "2h"}
]"""


def test_parse_duration():
    assert parse_duration("1h30m").total_seconds() == 5400
    with pytest.raises(ValueError):
        parse_duration("soon")


def test_parse_time_utc_forms():
    assert parse_time("2025-05-01T09:00Z") == utc(2025, 5, 1, 9)
    assert parse_time("2025-05-01 09:00") == utc(2025, 5, 1, 9)


def test_plan_back_to_back():
    slots = plan(load_tasks(TASKS), utc(2025, 5, 1, 9))
    assert [(s.name, s.start.hour, s.start.minute) for s in slots] == [
        ("review", 9, 0), ("deploy", 9, 30), ("cleanup", 10, 30)
    ]
    assert not any(s.late for s in slots)


def test_late_flag():
    slots = plan(load_tasks(TASKS), utc(2025, 5, 1, 11))
    assert [s.late for s in slots] == [True, True, False]


def test_load_errors_name_the_entry():
    with pytest.raises(ValueError, match="task #1"):
        load_tasks('[{"name": "a", "duration": "1h"}, {"name": "b"}]')
