"""Splitting template source into text, variable and block tokens."""
import re
from dataclasses import dataclass

from .errors import TemplateError

_TAG = re.compile(r"\{\{(.*?)\}\}|\{%(.*?)%\}", re.S)


@dataclass(frozen=True)
class Token:
    kind: str  # "text", "var" or "block"
    value: str
    line: int


def tokenize(source):
    """Tokens of ``source`` in order; tag contents are stripped of surrounding spaces."""
    tokens = []
    pos = 0
    line = 1
    for match in _TAG.finditer(source):
        if match.start() > pos:
            text = source[pos:match.start()]
            tokens.append(Token("text", text, line))
            line += text.count("\n")
        if match.group(1) is not None:
            tokens.append(Token("var", match.group(1).strip(), line))
        else:
            tokens.append(Token("block", match.group(2).strip(), line))
        line += match.group(0).count("\n")
        pos = match.end()
    rest = source[pos:]
    if "{{" in rest or "{%" in rest:
        raise TemplateError("unclosed tag", line + rest[:rest.find("{")].count("\n"))
    if rest:
        tokens.append(Token("text", rest, line))
    return tokens
