"""An ordered multi-valued mapping for query parameters."""
from .decode import parse_qsl
from .encode import urlencode


class QueryDict:
    """Keeps every ``(key, value)`` pair in insertion order; keys may repeat."""

    def __init__(self, pairs=()):
        self._pairs = [(str(k), str(v)) for k, v in pairs]

    @classmethod
    def from_string(cls, query):
        return cls(parse_qsl(query, keep_blank_values=True))

    def __len__(self):
        return len(self._pairs)

    def __contains__(self, key):
        return any(k == key for k, _ in self._pairs)

    def get(self, key, default=None):
        """The first value stored for ``key``."""
        for k, v in self._pairs:
            if k == key:
                return v
        return default

    def getlist(self, key):
        return [v for k, v in self._pairs if k == key]

    def add(self, key, value):
        self._pairs.append((str(key), str(value)))

    def set(self, key, value):
        """Replace all values of ``key`` by one value, kept at the position of the first one."""
        index = next((i for i, (k, _) in enumerate(self._pairs) if k == key), len(self._pairs))
        self.remove(key)
        self._pairs.insert(index, (str(key), str(value)))

    def remove(self, key):
        self._pairs = [(k, v) for k, v in self._pairs if k != key]

    def items(self):
        return list(self._pairs)

    def to_string(self):
        return urlencode(self._pairs)
