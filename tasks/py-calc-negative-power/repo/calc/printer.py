"""Turn a syntax tree back into minimal, fully equivalent source text."""
from .nodes import Binary, Call, Num, Unary, Var

# Higher binds tighter. Unary minus sits between '*' and '**', as in Python.
_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2, "unary": 3, "**": 4}


def _prec(node):
    if isinstance(node, Binary):
        return _PRECEDENCE[node.op]
    if isinstance(node, Unary):
        return _PRECEDENCE["unary"]
    return 5


def _wrap(node, needed):
    text = to_source(node)
    return f"({text})" if _prec(node) < needed else text


def to_source(node):
    """Source text for `node` using only the parentheses the grammar needs."""
    if isinstance(node, Num):
        return repr(node.value)
    if isinstance(node, Var):
        return node.name
    if isinstance(node, Call):
        return f"{node.name}({', '.join(to_source(a) for a in node.args)})"
    if isinstance(node, Unary):
        return node.op + _wrap(node.operand, _PRECEDENCE["unary"])
    if isinstance(node, Binary):
        prec = _PRECEDENCE[node.op]
        if node.op == "**":  # right-associative; the exponent may be a unary expression
            return f"{_wrap(node.left, prec + 1)} ** {_wrap(node.right, _PRECEDENCE['unary'])}"
        return f"{_wrap(node.left, prec)} {node.op} {_wrap(node.right, prec + 1)}"
    raise TypeError(f"not a calc node: {node!r}")
