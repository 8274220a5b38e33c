"""Evaluate parsed paths against Python data (dicts, lists, scalars)."""
from .parser import parse


def _apply(step, node):
    """Values selected by one step from one node (a list of 0 or more values)."""
    kind, arg = step
    if kind == "key":
        if isinstance(node, dict) and arg in node:
            return [node[arg]]
        return []
    if kind == "index":
        if isinstance(node, list) and 0 <= arg < len(node):
            return [node[arg]]
        return []
    raise AssertionError(f"unknown step {kind!r}")


class JsonPath:
    """A compiled path; reusable across documents."""

    def __init__(self, path):
        self.path = path
        self.steps = parse(path)

    def find(self, data):
        """Every value the path selects, in document order."""
        current = [data]
        for step in self.steps:
            current = [value for node in current for value in _apply(step, node)]
        return current

    def first(self, data, default=None):
        matches = self.find(data)
        return matches[0] if matches else default

    def __repr__(self):
        return f"JsonPath({self.path!r})"


def compile_path(path):
    return JsonPath(path)


def query(data, path):
    """All values matching ``path`` in ``data``."""
    return JsonPath(path).find(data)


def get(data, path, default=None):
    """The first value matching ``path``, or ``default`` when nothing matches."""
    return JsonPath(path).first(data, default)
