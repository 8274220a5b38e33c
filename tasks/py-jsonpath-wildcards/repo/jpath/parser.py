"""Parse a token list into a list of steps.

A step is a tuple: ``("key", name)`` selects a member of an object, ``("index", n)`` an element
of an array.
"""
from .errors import JsonPathError
from .lexer import DOT, END, INT, LBRACKET, NAME, RBRACKET, ROOT, STRING, tokenize


class _Parser:
    def __init__(self, tokens):
        self.tokens = tokens
        self.pos = 0

    def peek(self):
        return self.tokens[self.pos]

    def take(self, *kinds):
        token = self.tokens[self.pos]
        if token.kind not in kinds:
            expected = " or ".join(kinds)
            raise JsonPathError(f"expected {expected}, found {token.kind}", token.position)
        self.pos += 1
        return token

    def parse(self):
        self.take(ROOT)
        steps = []
        while self.peek().kind != END:
            token = self.take(DOT, LBRACKET)
            if token.kind == DOT:
                steps.append(self.member())
            else:
                steps.append(self.bracket())
        return steps

    def member(self):
        token = self.take(NAME, INT)
        return ("key", str(token.value))

    def bracket(self):
        token = self.take(INT, STRING)
        self.take(RBRACKET)
        if token.kind == INT:
            return ("index", token.value)
        return ("key", token.value)


def parse(path):
    """Steps of ``path``; raises :class:`JsonPathError` for malformed input."""
    return _Parser(tokenize(path)).parse()
