"""The syntax tree of a parsed formula."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Literal:
    """A number, text, boolean or error written in the formula."""

    value: object


@dataclass(frozen=True)
class Ref:
    """A single-cell reference."""

    ref: object


@dataclass(frozen=True)
class Range:
    """A range reference such as ``A1:B3``."""

    range: object


@dataclass(frozen=True)
class Name:
    """A defined name standing for a cell or range; ``name`` is upper-case."""

    name: str


@dataclass(frozen=True)
class Unary:
    """A prefix ``-`` or ``+``."""

    op: str
    operand: object


@dataclass(frozen=True)
class Percent:
    """A postfix ``%``: the operand divided by 100."""

    operand: object


@dataclass(frozen=True)
class Binary:
    """An infix operator: arithmetic, ``&`` or a comparison."""

    op: str
    left: object
    right: object


@dataclass(frozen=True)
class Call:
    """A function call; ``name`` is upper-case."""

    name: str
    args: tuple


def referenced_keys(node, names=None):
    """Return the set of ``(col, row)`` keys a formula reads, ranges expanded.

    ``names`` maps defined names to their :class:`~gridcalc.refs.RangeRef`; names it does not
    hold read nothing.
    """
    names = names or {}
    keys = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Ref):
            keys.add(current.ref.key)
        elif isinstance(current, Range):
            keys.update(current.range.keys())
        elif isinstance(current, Name):
            if current.name in names:
                keys.update(names[current.name].keys())
        elif isinstance(current, (Unary, Percent)):
            stack.append(current.operand)
        elif isinstance(current, Binary):
            stack.extend((current.left, current.right))
        elif isinstance(current, Call):
            stack.extend(current.args)
    return keys


def used_names(node):
    """Return the set of defined names a formula mentions."""
    found = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Name):
            found.add(current.name)
        elif isinstance(current, (Unary, Percent)):
            stack.append(current.operand)
        elif isinstance(current, Binary):
            stack.extend((current.left, current.right))
        elif isinstance(current, Call):
            stack.extend(current.args)
    return found
