"""Range constraints in npm/Cargo style.

Supported: ``*``, ``1.2.3`` / ``=1.2.3`` (exact), ``>=1.2.0``, ``>1.2.0``, ``<2.0.0``,
``<=1.4.0``, space-separated comparators (all must hold: ``>=1.2.0 <2.0.0``), caret
``^1.2.3`` (same left-most non-zero part), tilde ``~1.2.3`` (same major and minor) and
wildcards ``1.x`` / ``1.2.x``.
"""
import operator
import re

from .version import Version

_OPS = {">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt, "=": operator.eq}
_COMPARATOR = re.compile(r"^(>=|<=|>|<|=)?(.+)$")


class Range:
    """A conjunction of ``(op, version)`` comparators."""

    def __init__(self, comparators, text):
        self.comparators = tuple(comparators)
        self.text = text

    def contains(self, version):
        return all(_OPS[op](version, bound) for op, bound in self.comparators)

    def __str__(self):
        return self.text

    def __repr__(self):
        return f"Range({self.text!r})"


def _caret(v):
    if v.major:
        upper = Version(v.major + 1, 0, 0)
    elif v.minor:
        upper = Version(0, v.minor + 1, 0)
    else:
        upper = Version(0, 0, v.patch + 1)
    return [(">=", v), ("<", upper)]


def _wildcard(text):
    parts = text.split(".")
    if parts[-1] not in ("x", "*") or len(parts) > 3:
        raise ValueError(f"invalid wildcard {text!r}")
    if len(parts) == 2:
        major = int(parts[0])
        return [(">=", Version(major, 0, 0)), ("<", Version(major + 1, 0, 0))]
    major, minor = int(parts[0]), int(parts[1])
    return [(">=", Version(major, minor, 0)), ("<", Version(major, minor + 1, 0))]


def parse_range(text):
    """The :class:`Range` for ``text``; ``ValueError`` when it is malformed."""
    comparators = []
    for term in text.split():
        if term == "*":
            continue
        if term.startswith("^"):
            comparators += _caret(Version.parse(term[1:]))
        elif term.startswith("~"):
            v = Version.parse(term[1:])
            comparators += [(">=", v), ("<", Version(v.major, v.minor + 1, 0))]
        elif term.endswith((".x", ".*")):
            comparators += _wildcard(term)
        else:
            op, version = _COMPARATOR.match(term).groups()
            comparators.append((op or "=", Version.parse(version)))
    return Range(comparators, text.strip() or "*")
