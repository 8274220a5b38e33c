"""A heap-backed earliest-deadline-first queue."""
import heapq
from itertools import count


class EmptyQueueError(LookupError):
    """pop() or peek() on an empty queue."""


class DeadlineQueue:
    """Earliest deadline first; ties by higher priority, then first in, first out."""

    def __init__(self, tasks=()):
        self._heap = []
        self._sequence = count()
        for task in tasks:
            self.push(task)

    @staticmethod
    def _key(task):
        # (has no deadline, deadline, -priority): tasks without a deadline sort last.
        if task.deadline is None:
            return (1, 0, -task.priority)
        return (0, task.deadline.timestamp(), -task.priority)

    def push(self, task):
        heapq.heappush(self._heap, (self._key(task), next(self._sequence), task))

    def pop(self):
        if not self._heap:
            raise EmptyQueueError("pop from an empty DeadlineQueue")
        return heapq.heappop(self._heap)[-1]

    def peek(self):
        if not self._heap:
            raise EmptyQueueError("peek into an empty DeadlineQueue")
        return self._heap[0][-1]

    def __len__(self):
        return len(self._heap)

    def __bool__(self):
        return bool(self._heap)

    def overdue(self, now):
        """Names of queued tasks whose deadline has passed at `now`, in queue order."""
        return [task.name for _, _, task in sorted(self._heap) if task.is_overdue(now)]

    def drain(self):
        """Pop every task, in order."""
        result = []
        while self:
            result.append(self.pop())
        return result
