"""Building the node tree from tokens."""
import re

from .errors import TemplateError
from .expressions import parse_expression
from .nodes import For, If, Text, Var

_FOR = re.compile(r"^for\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\s+(.+)$", re.S)
_IF = re.compile(r"^if\s+(.+)$", re.S)


def parse(tokens):
    """The list of top-level nodes for ``tokens``."""
    nodes, end, token = _parse_until(list(tokens), 0, ())
    return nodes


def _parse_until(tokens, pos, stops):
    """Parse from ``pos`` until a block named in ``stops``; returns (nodes, pos, stop token)."""
    nodes = []
    while pos < len(tokens):
        token = tokens[pos]
        pos += 1
        if token.kind == "text":
            nodes.append(Text(token.value))
        elif token.kind == "var":
            nodes.append(Var(parse_expression(token.value, token.line), token.line))
        elif token.value in stops:
            return nodes, pos, token
        elif (match := _FOR.match(token.value)):
            body, pos, _ = _expect(tokens, pos, ("endfor",), token)
            nodes.append(For(match.group(1), parse_expression(match.group(2), token.line), body, token.line))
        elif (match := _IF.match(token.value)):
            body, pos, stop = _expect(tokens, pos, ("else", "endif"), token)
            orelse = []
            if stop.value == "else":
                orelse, pos, _ = _expect(tokens, pos, ("endif",), token)
            nodes.append(If(parse_expression(match.group(1), token.line), body, orelse, token.line))
        else:
            raise TemplateError(f"unexpected block {token.value!r}", token.line)
    if stops:
        raise TemplateError(f"missing {{% {stops[-1]} %}}", None)
    return nodes, pos, None


def _expect(tokens, pos, stops, opener):
    nodes, pos, stop = _parse_until(tokens, pos, stops)
    if stop is None:
        raise TemplateError(f"{{% {opener.value} %}} is never closed", opener.line)
    return nodes, pos, stop
