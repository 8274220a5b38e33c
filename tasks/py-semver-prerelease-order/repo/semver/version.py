"""The Version value type and its parser."""
import re
from dataclasses import dataclass, field

_VERSION_RE = re.compile(
    r"^v?(?P<major>0|[1-9]\d*)\.(?P<minor>0|[1-9]\d*)\.(?P<patch>0|[1-9]\d*)"
    r"(?:-(?P<pre>[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
    r"(?:\+(?P<build>[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)


class InvalidVersion(ValueError):
    """The string is not a valid semantic version."""


@dataclass(frozen=True)
class Version:
    """A parsed version; ``prerelease`` and ``build`` are tuples of dot-separated identifiers."""

    major: int
    minor: int
    patch: int
    prerelease: tuple = field(default=())
    build: tuple = field(default=())

    @classmethod
    def parse(cls, text):
        """Parse ``"1.2.3-rc.1+build.5"``; a leading ``v`` is accepted."""
        match = _VERSION_RE.match(text.strip())
        if not match:
            raise InvalidVersion(f"invalid version: {text!r}")
        pre = tuple(match.group("pre").split(".")) if match.group("pre") else ()
        for ident in pre:
            if ident.isdigit() and len(ident) > 1 and ident[0] == "0":
                raise InvalidVersion(f"numeric identifier with leading zero in {text!r}")
        build = tuple(match.group("build").split(".")) if match.group("build") else ()
        return cls(int(match.group("major")), int(match.group("minor")), int(match.group("patch")), pre, build)

    @property
    def is_prerelease(self):
        return bool(self.prerelease)

    def bump(self, part):
        """Return the next ``major``, ``minor`` or ``patch`` release (prerelease/build dropped)."""
        if part == "major":
            return Version(self.major + 1, 0, 0)
        if part == "minor":
            return Version(self.major, self.minor + 1, 0)
        if part == "patch":
            return Version(self.major, self.minor, self.patch + 1)
        raise ValueError(f"unknown part {part!r}")

    def __str__(self):
        text = f"{self.major}.{self.minor}.{self.patch}"
        if self.prerelease:
            text += "-" + ".".join(self.prerelease)
        if self.build:
            text += "+" + ".".join(self.build)
        return text
