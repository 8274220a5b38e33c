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


def referenced_keys(node):
    """Return the set of ``(col, row)`` keys a formula reads, ranges expanded."""
    keys = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, Ref):
            keys.add(current.ref.key)
        elif isinstance(current, Range):
            keys.update(current.range.keys())
        elif isinstance(current, (Unary, Percent)):
            stack.append(current.operand)
        elif isinstance(current, Binary):
            stack.extend((current.left, current.right))
        elif isinstance(current, Call):
            stack.extend(current.args)
    return keys
