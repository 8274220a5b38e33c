import pytest

from resolver import Version, parse_range


def ok(rng, version):
    return parse_range(rng).contains(Version.parse(version))


def test_caret():
    assert ok("^1.2.3", "1.9.0") and not ok("^1.2.3", "2.0.0") and not ok("^1.2.3", "1.2.2")
    assert ok("^0.2.3", "0.2.9") and not ok("^0.2.3", "0.3.0")
    assert ok("^0.0.3", "0.0.3") and not ok("^0.0.3", "0.0.4")


def test_tilde_and_wildcards():
    assert ok("~1.2.3", "1.2.9") and not ok("~1.2.3", "1.3.0")
    assert ok("1.x", "1.9.9") and not ok("1.x", "2.0.0")
    assert ok("1.2.x", "1.2.0") and not ok("1.2.x", "1.3.0")


def test_comparators():
    assert ok(">=1.2.0 <2.0.0", "1.5.0") and not ok(">=1.2.0 <2.0.0", "2.0.0")
    assert ok("1.0.0", "1.0.0") and not ok("=1.0.0", "1.0.1")
    assert ok("*", "0.0.1")


def test_invalid():
    with pytest.raises(ValueError):
        parse_range("^1.2")
