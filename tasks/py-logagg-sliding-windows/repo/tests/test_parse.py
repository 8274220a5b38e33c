from datetime import datetime, timezone

import pytest

from logagg import ParseError, parse_line, parse_lines
from tests.conftest import LOG


def test_parse_line():
    record = parse_line("2025-05-01T10:00:03.250Z ERROR api POST /x 502 31ms")
    assert record.timestamp == datetime(2025, 5, 1, 10, 0, 3, 250000, tzinfo=timezone.utc)
    assert (record.level, record.service, record.status, record.latency_ms) == ("ERROR", "api", 502, 31)


def test_garbage_skipped_by_default(records):
    assert len(records) == 6


def test_strict_names_line():
    with pytest.raises(ParseError, match="line 6"):
        parse_lines(LOG.splitlines(), strict=True)
