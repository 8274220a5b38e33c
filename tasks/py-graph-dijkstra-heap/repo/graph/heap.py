"""An array-backed binary min-heap with stable ordering for equal priorities."""
import itertools


class MinHeap:
    """Priority queue of ``(priority, item)``; items with equal priority pop in insertion order."""

    def __init__(self):
        self._data = []  # entries are [priority, sequence, item]
        self._counter = itertools.count()

    def __len__(self):
        return len(self._data)

    def __bool__(self):
        return bool(self._data)

    def push(self, priority, item):
        self._data.append((priority, next(self._counter), item))
        self._sift_up(len(self._data) - 1)

    def peek(self):
        """The ``(priority, item)`` pair that :meth:`pop` would return, without removing it."""
        if not self._data:
            raise IndexError("peek from an empty heap")
        priority, _, item = self._data[0]
        return priority, item

    def pop(self):
        """Remove and return the ``(priority, item)`` pair with the lowest priority."""
        if not self._data:
            raise IndexError("pop from an empty heap")
        last = self._data.pop()
        if not self._data:
            return last[0], last[2]
        top = self._data[0]
        self._data[0] = last
        self._sift_down(0)
        return top[0], top[2]

    def _sift_up(self, index):
        data = self._data
        entry = data[index]
        while index > 0:
            parent = (index - 1) // 2
            if entry < data[parent]:
                data[index] = data[parent]
                index = parent
            else:
                break
        data[index] = entry

    def _sift_down(self, index):
        data = self._data
        size = len(data)
        while True:
            left, right = 2 * index + 1, 2 * index + 2
            smallest = index
            if left < size and data[left] < data[smallest]:
                smallest = left
            if right < size and data[right] < data[left]:
                smallest = right
            if smallest == index:
                return
            data[index], data[smallest] = data[smallest], data[index]
            index = smallest
