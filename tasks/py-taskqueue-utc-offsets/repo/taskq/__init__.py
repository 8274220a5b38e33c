"""taskq: a deadline-ordered work queue and a simple sequential planner.

Tasks are served earliest-deadline-first; equal deadlines go to the higher priority, then to
the task queued first. Tasks without a deadline come after every task that has one.
"""
from .clock import parse_duration, parse_time
from .io import load_tasks
from .model import Task
from .planner import Slot, plan
from .queue import DeadlineQueue, EmptyQueueError

__all__ = [
    "DeadlineQueue", "EmptyQueueError", "Slot", "Task", "load_tasks", "parse_duration",
    "parse_time", "plan",
]
