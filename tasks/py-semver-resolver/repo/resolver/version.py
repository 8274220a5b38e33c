"""MAJOR.MINOR.PATCH versions (no pre-release or build metadata)."""
import re
from functools import total_ordering

_VERSION = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")


@total_ordering
class Version:
    __slots__ = ("major", "minor", "patch")

    def __init__(self, major, minor, patch):
        self.major, self.minor, self.patch = major, minor, patch

    @classmethod
    def parse(cls, text):
        match = _VERSION.match(text.strip())
        if not match:
            raise ValueError(f"invalid version {text!r}")
        return cls(*map(int, match.groups()))

    def _key(self):
        return (self.major, self.minor, self.patch)

    def __eq__(self, other):
        return isinstance(other, Version) and self._key() == other._key()

    def __lt__(self, other):
        return self._key() < other._key()

    def __hash__(self):
        return hash(self._key())

    def __str__(self):
        return f"{self.major}.{self.minor}.{self.patch}"

    def __repr__(self):
        return f"Version({self})"
