"""Expressions inside ``{{ }}`` and ``{% if %}``: a dotted name followed by filters."""
import re
from dataclasses import dataclass, field

from .errors import TemplateError

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


@dataclass(frozen=True)
class FilterCall:
    name: str
    args: tuple = ()


@dataclass(frozen=True)
class Expression:
    path: str
    filters: tuple = field(default_factory=tuple)


def parse_expression(source, line=None):
    """Parse ``name.attr|filter|filter`` into an :class:`Expression`."""
    head, *filter_parts = [part.strip() for part in source.split("|")]
    if not _NAME.match(head):
        raise TemplateError(f"invalid expression {source!r}", line)
    filters = []
    for part in filter_parts:
        if not _NAME.match(part) or "." in part:
            raise TemplateError(f"invalid filter {part!r} in {source!r}", line)
        filters.append(FilterCall(part))
    return Expression(head, tuple(filters))
