"""Evaluate formula trees against the values of a sheet."""

import math

from .errors import DIV0, NAME, VALUE, CellError, ErrorSignal
from .functions import RangeValue, lookup
from .nodes import Binary, Call, Literal, Name, Percent, Range, Ref, Unary
from .values import compare, to_number, to_text

_COMPARISONS = {
    "=": lambda order: order == 0,
    "<>": lambda order: order != 0,
    "<": lambda order: order < 0,
    ">": lambda order: order > 0,
    "<=": lambda order: order <= 0,
    ">=": lambda order: order >= 0,
}


class Evaluator:
    """Evaluates trees; ``read(key)`` returns the current value of the cell at ``(col, row)``.

    ``names`` maps defined names (upper-case) to :class:`~gridcalc.refs.RangeRef` values.
    """

    def __init__(self, read, names=None):
        self.read = read
        self.names = names if names is not None else {}

    def evaluate(self, node):
        """The value of a whole formula: errors come back as :class:`CellError` values."""
        try:
            result = self._eval(node)
        except ErrorSignal as signal:
            return signal.error
        if isinstance(result, RangeValue):
            if len(result.rows) == 1 and len(result.rows[0]) == 1:
                return result.rows[0][0]
            return VALUE
        if result is None:
            return 0.0
        return result

    def _eval(self, node):
        if isinstance(node, Literal):
            return node.value
        if isinstance(node, Ref):
            return self.read(node.ref.key)
        if isinstance(node, Range):
            return self._range(node.range)
        if isinstance(node, Name):
            rng = self.names.get(node.name)
            if rng is None:
                raise ErrorSignal(NAME)
            if rng.width == 1 and rng.height == 1:
                return self.read(rng.start.key)
            return self._range(rng)
        if isinstance(node, Unary):
            number = to_number(self._scalar(node.operand))
            return -number if node.op == "-" else number
        if isinstance(node, Percent):
            return to_number(self._scalar(node.operand)) / 100
        if isinstance(node, Binary):
            return self._binary(node)
        if isinstance(node, Call):
            return self._call(node)
        raise TypeError(f"unknown node {node!r}")

    def _range(self, rng):
        return RangeValue([
            [self.read((col, row)) for col in range(rng.start.col, rng.end.col + 1)]
            for row in range(rng.start.row, rng.end.row + 1)
        ])

    def _scalar(self, node):
        value = self._eval(node)
        if isinstance(value, RangeValue):
            raise ErrorSignal(VALUE)
        if isinstance(value, CellError):
            raise ErrorSignal(value)
        return value

    def _binary(self, node):
        left = self._scalar(node.left)
        right = self._scalar(node.right)
        if node.op == "&":
            return to_text(left) + to_text(right)
        if node.op in _COMPARISONS:
            return _COMPARISONS[node.op](compare(left, right))
        a, b = to_number(left), to_number(right)
        if node.op == "+":
            return _finite(a + b)
        if node.op == "-":
            return _finite(a - b)
        if node.op == "*":
            return _finite(a * b)
        if node.op == "/":
            if b == 0:
                raise ErrorSignal(DIV0)
            return _finite(a / b)
        if node.op == "^":
            if a == 0 and b < 0:
                raise ErrorSignal(DIV0)
            try:
                result = a ** b
            except OverflowError:
                raise ErrorSignal(VALUE) from None
            if isinstance(result, complex):
                raise ErrorSignal(VALUE)
            return _finite(result)
        raise TypeError(f"unknown operator {node.op!r}")

    def _call(self, node):
        spec = lookup(node.name)
        if spec is None:
            raise ErrorSignal(NAME)
        count = len(node.args)
        if count < spec.min_args or (spec.max_args is not None and count > spec.max_args):
            raise ErrorSignal(VALUE)
        if spec.lazy:
            args = [self._thunk(arg) for arg in node.args]
        else:
            args = [self._eval(arg) for arg in node.args]
        result = spec.fn(*args)
        if isinstance(result, bool):
            return result
        if isinstance(result, int):
            return float(result)
        return result

    def _thunk(self, node):
        return lambda: self._eval(node)


def _finite(number):
    if math.isinf(number) or math.isnan(number):
        raise ErrorSignal(VALUE)
    return number
