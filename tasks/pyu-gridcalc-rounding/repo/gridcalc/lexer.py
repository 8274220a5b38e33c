"""Split formula text (without its leading ``=``) into tokens."""

import re
from dataclasses import dataclass

from .errors import FormulaSyntaxError

NUMBER = "number"
STRING = "string"
BOOL = "bool"
REF = "ref"
NAME = "name"
ERROR = "error"
OP = "op"
LPAREN = "("
RPAREN = ")"
COMMA = ","
COLON = ":"
END = "end"

_TOKEN = re.compile(
    r"""
    (?P<space>\s+)
  | (?P<number>(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)
  | (?P<string>"(?:[^"]|"")*")
  | (?P<ref>\$?[A-Za-z]{1,3}\$?\d+)(?![A-Za-z0-9_(])
  | (?P<name>[A-Za-z_][A-Za-z0-9_.]*)
  | (?P<error>\#(?:DIV/0!|VALUE!|REF!|NAME\?|N/A|CYCLE!))
  | (?P<op><>|<=|>=|[-+*/^&=<>%])
  | (?P<punct>[(),:])
    """,
    re.VERBOSE,
)


@dataclass(frozen=True)
class Token:
    """One token: its kind, its text as written and where it starts."""

    kind: str
    text: str
    pos: int


def tokenize(text):
    """Return the tokens of ``text``, ending with an ``END`` token.

    Raises :class:`FormulaSyntaxError` at the first character no token starts with.
    """
    tokens = []
    pos = 0
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if not match:
            raise FormulaSyntaxError(f"unexpected character {text[pos]!r}", pos)
        kind = match.lastgroup
        value = match.group(kind)
        if kind == "punct":
            tokens.append(Token(value, value, pos))
        elif kind == "name" and value.upper() in ("TRUE", "FALSE"):
            tokens.append(Token(BOOL, value, pos))
        elif kind != "space":
            tokens.append(Token(kind, value, pos))
        pos = match.end()
    tokens.append(Token(END, "", len(text)))
    return tokens


def unquote(text):
    """Return the content of a string token: quotes removed, doubled quotes collapsed."""
    return text[1:-1].replace('""', '"')
