from datetime import timedelta, timezone

from taskq import DeadlineQueue, Task, load_tasks, parse_time, plan
from taskq.clock import utc

MIXED = """[
  {"name": "berlin", "duration": "30m", "deadline": "2025-05-01T11:00+02:00"},
  {"name": "london", "duration": "30m", "deadline": "2025-05-01T09:30Z"},
  {"name": "new-york", "duration": "30m", "deadline": "2025-05-01T04:45-04:00"}
]"""


def test_offset_converted_to_utc():
    assert parse_time("2025-05-01T11:00+02:00") == utc(2025, 5, 1, 9)


def test_negative_offset():
    assert parse_time("2025-05-01T04:45-04:00") == utc(2025, 5, 1, 8, 45)


def test_result_is_utc():
    assert parse_time("2025-05-01T11:00+02:00").utcoffset() == timedelta(0)


def test_queue_orders_instants_not_wall_clock():
    assert [t.name for t in DeadlineQueue(load_tasks(MIXED)).drain()] == ["new-york", "berlin", "london"]


def test_overdue_with_offset():
    [task] = load_tasks('[{"name": "x", "duration": "1h", "deadline": "2025-05-01T10:00+02:00"}]')
    assert task.is_overdue(utc(2025, 5, 1, 8, 30)) is True


def test_plan_lateness_with_offsets():
    slots = plan(load_tasks(MIXED), utc(2025, 5, 1, 8, 15))
    assert [(s.name, s.late) for s in slots] == [("new-york", False), ("berlin", True), ("london", True)]


def test_utc_and_naive_unchanged():
    assert parse_time("2025-05-01T09:00Z") == utc(2025, 5, 1, 9)
    assert parse_time("2025-05-01T09:00").tzinfo == timezone.utc
