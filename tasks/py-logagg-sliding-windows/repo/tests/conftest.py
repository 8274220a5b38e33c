import pytest

from logagg import parse_lines

LOG = """\
2025-05-01T10:00:03Z INFO api GET /orders 200 120ms
2025-05-01T10:00:41Z INFO api GET /orders 200 80ms
2025-05-01T10:01:05Z ERROR api POST /orders 503 900ms
2025-05-01T10:01:30Z INFO web GET / 200 15ms
2025-05-01T10:02:59Z INFO api GET /orders/7 200 60ms
this line is garbage
2025-05-01T10:04:00Z WARN api GET /orders 429 5ms
"""


@pytest.fixture
def records():
    return parse_lines(LOG.splitlines())
