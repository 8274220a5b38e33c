"""Range constraints such as ``">=1.2.0 <2.0.0"``, ``"^1.4.0"`` or ``"~2.1.0"``."""
import re

from .compare import compare, precedence_key
from .version import Version

_CLAUSE_RE = re.compile(r"^(?P<op>>=|<=|>|<|=|\^|~)?(?P<version>.+)$")


def _expand(op, version):
    """Turn one clause into a list of (operator, Version) comparisons."""
    if op == "^":
        if version.major > 0:
            upper = version.bump("major")
        elif version.minor > 0:
            upper = version.bump("minor")
        else:
            upper = version.bump("patch")
        return [(">=", version), ("<", Version(upper.major, upper.minor, upper.patch, ("0",)))]
    if op == "~":
        upper = version.bump("minor")
        return [(">=", version), ("<", Version(upper.major, upper.minor, upper.patch, ("0",)))]
    return [(op or "=", version)]


def _check(op, version, bound):
    result = compare(version, bound)
    return {
        "=": result == 0, ">": result > 0, ">=": result >= 0, "<": result < 0, "<=": result <= 0,
    }[op]


def satisfies(version, constraint):
    """True when ``version`` meets every space-separated clause of ``constraint``."""
    version = version if isinstance(version, Version) else Version.parse(version)
    for clause in constraint.split():
        match = _CLAUSE_RE.match(clause)
        if not match:
            raise ValueError(f"bad clause {clause!r}")
        bound = Version.parse(match.group("version"))
        for op, limit in _expand(match.group("op"), bound):
            if not _check(op, version, limit):
                return False
    return True


def max_satisfying(versions, constraint):
    """The highest-precedence version in ``versions`` that satisfies ``constraint``, or None."""
    matching = [v for v in versions if satisfies(v, constraint)]
    return max(matching, key=precedence_key) if matching else None
