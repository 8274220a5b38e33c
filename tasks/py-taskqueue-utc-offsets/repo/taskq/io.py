"""Loading task lists from JSON, as exported by the team's tracker."""
import json

from .model import Task


def load_tasks(text):
    """A JSON array of task objects -> list of Task. Errors name the offending entry."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON: {exc}") from None
    if not isinstance(data, list):
        raise ValueError("expected a JSON array of tasks")
    tasks = []
    for index, item in enumerate(data):
        try:
            tasks.append(Task.from_dict(item))
        except (ValueError, AttributeError, TypeError) as exc:
            raise ValueError(f"task #{index}: {exc}") from None
    return tasks
