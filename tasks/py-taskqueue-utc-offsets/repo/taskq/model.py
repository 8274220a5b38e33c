"""The Task value."""
from dataclasses import dataclass
from datetime import datetime, timedelta

from .clock import parse_duration, parse_time


@dataclass(frozen=True)
class Task:
    name: str
    duration: timedelta
    deadline: datetime | None = None  # aware UTC
    priority: int = 0  # higher is more important

    def __post_init__(self):
        if self.deadline is not None and self.deadline.tzinfo is None:
            raise ValueError(f"task {self.name!r}: deadline must be timezone-aware")
        if self.duration <= timedelta(0):
            raise ValueError(f"task {self.name!r}: duration must be positive")

    @classmethod
    def from_dict(cls, data):
        """Build a task from {'name', 'duration', optional 'deadline', optional 'priority'}."""
        missing = {"name", "duration"} - data.keys()
        if missing:
            raise ValueError(f"task is missing {', '.join(sorted(missing))}")
        deadline = data.get("deadline")
        return cls(
            name=data["name"],
            duration=parse_duration(data["duration"]),
            deadline=parse_time(deadline) if deadline else None,
            priority=int(data.get("priority", 0)),
        )

    def is_overdue(self, now):
        """True when the deadline has passed at `now` (an aware datetime)."""
        return self.deadline is not None and now > self.deadline
