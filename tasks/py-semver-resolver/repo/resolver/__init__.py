"""resolver: pick package versions that satisfy semver range constraints."""
from .errors import ConflictError, UnknownPackage
from .ranges import Range, parse_range
from .registry import Registry
from .resolve import resolve
from .version import Version

__all__ = ["ConflictError", "Range", "Registry", "UnknownPackage", "Version", "parse_range", "resolve"]
