"""Turn cell values into the text a sheet shows, with optional number patterns.

Supported patterns: ``0``, ``0.00`` (any number of decimals), ``#,##0`` and ``#,##0.00``
(thousands separators), and any of them followed by ``%`` (the value is shown times 100).
"""

from dataclasses import dataclass

from .errors import CellError
from .values import number_to_text, round_half_away


class PatternError(ValueError):
    """Raised for a number pattern this module does not understand."""


@dataclass(frozen=True)
class NumberPattern:
    decimals: int
    grouping: bool
    percent: bool


def parse_pattern(pattern):
    """Read a number pattern such as ``"#,##0.00%"``."""
    body = pattern.strip()
    percent = body.endswith("%")
    if percent:
        body = body[:-1]
    whole, dot, fraction = body.partition(".")
    if whole not in ("0", "#,##0") or (dot and (not fraction or set(fraction) != {"0"})):
        raise PatternError(f"unsupported number pattern: {pattern!r}")
    return NumberPattern(len(fraction), whole == "#,##0", percent)


def format_number(number, pattern):
    """Format ``number`` with a pattern string or :class:`NumberPattern`."""
    if isinstance(pattern, str):
        pattern = parse_pattern(pattern)
    if pattern.percent:
        number = number * 100
    rounded = round_half_away(number, pattern.decimals)
    text = f"{abs(rounded):,.{pattern.decimals}f}" if pattern.grouping else f"{abs(rounded):.{pattern.decimals}f}"
    if rounded < 0:
        text = "-" + text
    return text + ("%" if pattern.percent else "")


def format_value(value, pattern=None):
    """Return the display text of a cell value; a pattern applies to numbers only."""
    if value is None:
        return ""
    if isinstance(value, CellError):
        return value.code
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        return number_to_text(value) if pattern is None else format_number(value, pattern)
    return value
