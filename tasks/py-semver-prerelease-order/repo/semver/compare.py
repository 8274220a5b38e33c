"""Version precedence as defined by semver.org, section 11."""
from .version import Version


def _as_version(value):
    return value if isinstance(value, Version) else Version.parse(value)


def _identifier_key(ident):
    """Numeric identifiers compare numerically and sort before alphanumeric ones."""
    if ident.isdigit():
        return (0, ident)
    return (1, ident)


def precedence_key(version):
    """A sort key implementing semver precedence; build metadata is ignored.

    A release sorts after all of its prereleases; prerelease identifiers are compared one by one,
    and a shorter list of identifiers sorts first when all shared ones are equal.
    """
    v = _as_version(version)
    if v.prerelease:
        pre = (0, tuple(_identifier_key(i) for i in v.prerelease))
    else:
        pre = (1, ())
    return (v.major, v.minor, v.patch, pre)


def compare(a, b):
    """Return -1, 0 or 1 as version ``a`` has lower, equal or higher precedence than ``b``."""
    ka, kb = precedence_key(a), precedence_key(b)
    return (ka > kb) - (ka < kb)


def sort_versions(versions, reverse=False):
    """Sort version strings or Version objects by precedence (stable for equal precedence)."""
    return sorted(versions, key=precedence_key, reverse=reverse)
