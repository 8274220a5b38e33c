"""Summaries of validation results for the nightly import job's e-mail."""
import re
from collections import Counter

from .validator import validate

_ERROR = re.compile(r"^(?:header|row \d+)(?:, column '(?P<column>[^']*)')?: ")


def error_counts(text, schema):
    """Counter {column name: number of errors}; header and row-shape errors count under '(file)'."""
    counts = Counter()
    for message in validate(text, schema):
        match = _ERROR.match(message)
        counts[match.group("column") if match and match.group("column") else "(file)"] += 1
    return counts


def format_report(text, schema, limit=5):
    """A short report: total, per-column counts, and the first `limit` messages."""
    errors = validate(text, schema)
    if not errors:
        return "OK: no problems found"
    counts = error_counts(text, schema)
    lines = [f"{len(errors)} problem(s)"]
    lines += [f"  {name}: {count}" for name, count in sorted(counts.items())]
    lines += [f"- {message}" for message in errors[:limit]]
    if len(errors) > limit:
        lines.append(f"... and {len(errors) - limit} more")
    return "\n".join(lines)
