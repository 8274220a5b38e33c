"""Plan a single worker's day: run tasks back to back in queue order."""
from dataclasses import dataclass
from datetime import datetime

from .queue import DeadlineQueue


@dataclass(frozen=True)
class Slot:
    name: str
    start: datetime
    end: datetime
    late: bool  # finishes after its deadline


def plan(tasks, start):
    """Slots for `tasks` run one after another from `start` (aware), earliest deadline first."""
    slots = []
    cursor = start
    for task in DeadlineQueue(tasks).drain():
        end = cursor + task.duration
        slots.append(Slot(task.name, cursor, end, task.deadline is not None and end > task.deadline))
        cursor = end
    return slots


def late_tasks(tasks, start):
    """Names of the tasks that would finish late."""
    return [slot.name for slot in plan(tasks, start) if slot.late]
