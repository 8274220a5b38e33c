"""Parse access-log lines of the form

    2025-05-01T10:00:03Z INFO api GET /orders 200 123ms

(timestamp, level, service, method, path, status, latency). Timestamps must be UTC ('Z').
"""
import re
from dataclasses import dataclass
from datetime import datetime, timezone

_LINE = re.compile(
    r"^(?P<ts>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)\s+(?P<level>[A-Z]+)\s+(?P<service>\S+)\s+"
    r"(?P<method>[A-Z]+)\s+(?P<path>\S+)\s+(?P<status>\d{3})\s+(?P<latency>\d+)ms\s*$"
)


class ParseError(ValueError):
    """A line does not follow the log format."""


@dataclass(frozen=True)
class LogRecord:
    timestamp: datetime  # aware, UTC
    level: str
    service: str
    method: str
    path: str
    status: int
    latency_ms: int

    @property
    def epoch(self):
        """Seconds since the Unix epoch (float)."""
        return self.timestamp.timestamp()


def parse_line(line):
    match = _LINE.match(line.strip())
    if not match:
        raise ParseError(f"not an access-log line: {line.strip()!r}")
    ts = datetime.strptime(match["ts"].replace("Z", ""), "%Y-%m-%dT%H:%M:%S" + (".%f" if "." in match["ts"] else ""))
    return LogRecord(
        ts.replace(tzinfo=timezone.utc), match["level"], match["service"], match["method"],
        match["path"], int(match["status"]), int(match["latency"]),
    )


def parse_lines(lines, strict=False):
    """Records of the parseable lines; blank lines are skipped. With strict=True a bad line raises
    ParseError naming its 1-based number, otherwise it is skipped."""
    records = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(parse_line(line))
        except ParseError as exc:
            if strict:
                raise ParseError(f"line {number}: {exc}") from None
    return records
