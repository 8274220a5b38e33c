"""Evaluate syntax trees."""
import math
import operator

from .errors import EvalError
from .nodes import Binary, Call, Num, Unary, Var
from .parser import parse

FUNCTIONS = {"abs": abs, "min": min, "max": max, "sqrt": math.sqrt, "round": round}
CONSTANTS = {"pi": math.pi, "e": math.e}
_BINARY = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "%": operator.mod,
    "**": operator.pow,
}


def _eval(node, names):
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Var):
        if node.name in names:
            return names[node.name]
        if node.name in CONSTANTS:
            return CONSTANTS[node.name]
        raise EvalError(f"unknown name {node.name!r}")
    if isinstance(node, Unary):
        value = _eval(node.operand, names)
        return -value if node.op == "-" else +value
    if isinstance(node, Binary):
        left, right = _eval(node.left, names), _eval(node.right, names)
        try:
            return _BINARY[node.op](left, right)
        except ZeroDivisionError:
            raise EvalError("division by zero") from None
    if isinstance(node, Call):
        if node.name not in FUNCTIONS:
            raise EvalError(f"unknown function {node.name!r}")
        return FUNCTIONS[node.name](*(_eval(arg, names) for arg in node.args))
    raise TypeError(f"not a calc node: {node!r}")


def evaluate(source, names=None):
    """Evaluate an expression string (or an already parsed tree) with optional variables."""
    tree = parse(source) if isinstance(source, str) else source
    return _eval(tree, dict(names or {}))
