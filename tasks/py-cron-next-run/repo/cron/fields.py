"""Parsing of a single cron field into the set of values it allows."""
from .errors import CronError
from .names import MONTH_NAMES, WEEKDAY_NAMES, replace_names

#: (name, lowest value, highest value, names) of the five fields, in order.
FIELDS = (
    ("minute", 0, 59, None),
    ("hour", 0, 23, None),
    ("day", 1, 31, None),
    ("month", 1, 12, MONTH_NAMES),
    ("weekday", 0, 7, WEEKDAY_NAMES),
)


def _number(text, field):
    if not text.isdigit():
        raise CronError(f"{field}: expected a number, got {text!r}")
    return int(text)


def parse_field(text, lo, hi, names=None, field="field"):
    """The sorted tuple of values a field allows.

    Supports ``*``, single values, ranges ``a-b``, lists ``a,b,c`` and steps ``*/n``,
    ``a-b/n`` and ``a/n`` (from ``a`` to the maximum). A step counts from the start of its range:
    ``10-30/10`` is 10, 20, 30.
    """
    text = replace_names(text, names)
    values = set()
    for part in text.split(","):
        if not part:
            raise CronError(f"{field}: empty list element")
        base, slash, step_text = part.partition("/")
        step = _number(step_text, field) if slash else 1
        if step < 1:
            raise CronError(f"{field}: step must be positive")
        if base == "*":
            start, end = lo, hi
        elif "-" in base:
            first, _, last = base.partition("-")
            start, end = _number(first, field), _number(last, field)
        else:
            start = _number(base, field)
            end = hi if slash else start
        if not lo <= start <= end <= hi:
            raise CronError(f"{field}: {part!r} is outside {lo}-{hi} or reversed")
        values.update(v for v in range(lo, end + 1, step) if v >= start)
    return tuple(sorted(values))


def parse_fields(parts):
    """Parse the five fields of an expression; weekday 7 is folded into 0 (both mean Sunday)."""
    if len(parts) != len(FIELDS):
        raise CronError(f"expected {len(FIELDS)} fields, got {len(parts)}")
    parsed = [parse_field(text, lo, hi, names, name) for text, (name, lo, hi, names) in zip(parts, FIELDS)]
    parsed[4] = tuple(sorted({0 if v == 7 else v for v in parsed[4]}))
    return parsed
