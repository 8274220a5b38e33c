"""An in-memory event store with JSON Lines export/import."""
import json
from dataclasses import dataclass

from ..events import decode, encode
from .errors import ConcurrencyError, StreamNotFound


@dataclass(frozen=True)
class StoredEvent:
    stream: str
    version: int  # 1-based position within the stream
    position: int  # 1-based position in the whole store
    event: object


class EventStore:
    def __init__(self):
        self._log = []
        self._versions = {}

    def version(self, stream):
        """Number of events in `stream` (0 for a new stream)."""
        return self._versions.get(stream, 0)

    def append(self, stream, events, expected_version):
        """Append `events` to `stream` if it still has `expected_version` events."""
        current = self.version(stream)
        if current != expected_version:
            raise ConcurrencyError(
                f"stream {stream!r} is at version {current}, expected {expected_version}"
            )
        for event in events:
            current += 1
            self._log.append(StoredEvent(stream, current, len(self._log) + 1, event))
        self._versions[stream] = current
        return current

    def load(self, stream):
        """The events of `stream`, oldest first."""
        if stream not in self._versions:
            raise StreamNotFound(stream)
        return [stored.event for stored in self._log if stored.stream == stream]

    def all(self):
        """Every StoredEvent, in append order."""
        return list(self._log)

    def export_jsonl(self):
        return "".join(
            json.dumps({"stream": s.stream, "version": s.version, "event": encode(s.event)}) + "\n"
            for s in self._log
        )

    @classmethod
    def import_jsonl(cls, text):
        store = cls()
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            record = json.loads(line)
            try:
                store.append(record["stream"], [decode(record["event"])], record["version"] - 1)
            except (ValueError, ConcurrencyError) as exc:
                raise ValueError(f"line {number}: {exc}") from None
        return store
