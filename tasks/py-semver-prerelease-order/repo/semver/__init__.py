"""Semantic Versioning 2.0.0: parsing, precedence and range matching."""
from .compare import compare, sort_versions
from .ranges import max_satisfying, satisfies
from .version import InvalidVersion, Version

__all__ = ["InvalidVersion", "Version", "compare", "max_satisfying", "satisfies", "sort_versions"]
