"""A precedence-climbing parser from tokens to :mod:`gridcalc.nodes` trees.

Binding, loosest first: comparisons (``= <> < > <= >=``), ``&``, ``+ -``, ``* /``, ``^``,
prefix ``-``/``+``. All binary operators group to the left, so
``2^3^2`` is ``(2^3)^2`` and ``-2^2`` is ``(-2)^2`` as in common spreadsheets.
"""

from . import lexer
from .errors import ERRORS_BY_CODE, FormulaSyntaxError
from .nodes import Binary, Call, Literal, Name, Range, Ref, Unary
from .refs import AddressError, RangeRef, parse_ref

_BINARY = {
    "=": 1, "<>": 1, "<": 1, ">": 1, "<=": 1, ">=": 1,
    "&": 2,
    "+": 3, "-": 3,
    "*": 4, "/": 4,
    "^": 5,
}
_PREFIX = 6


def parse(formula):
    """Parse formula text (without the leading ``=``) into a syntax tree."""
    return _Parser(lexer.tokenize(formula)).parse()


class _Parser:
    def __init__(self, tokens):
        self.tokens = tokens
        self.index = 0

    def peek(self):
        return self.tokens[self.index]

    def advance(self):
        token = self.tokens[self.index]
        self.index += 1
        return token

    def expect(self, kind):
        token = self.advance()
        if token.kind != kind:
            raise FormulaSyntaxError(f"expected {kind!r}, found {token.text or 'end'!r}", token.pos)
        return token

    def parse(self):
        if self.peek().kind == lexer.END:
            raise FormulaSyntaxError("empty formula", 0)
        node = self.expression(0)
        token = self.peek()
        if token.kind != lexer.END:
            raise FormulaSyntaxError(f"unexpected {token.text!r}", token.pos)
        return node

    def expression(self, min_binding):
        left = self.prefix()
        while True:
            token = self.peek()
            binding = _BINARY.get(token.text) if token.kind == lexer.OP else None
            if binding is None or binding <= min_binding:
                return left
            self.advance()
            left = Binary(token.text, left, self.expression(binding))

    def prefix(self):
        token = self.advance()
        if token.kind == lexer.OP and token.text in ("-", "+"):
            operand = self.expression(_PREFIX)
            return Unary(token.text, operand)
        if token.kind == lexer.NUMBER:
            return Literal(float(token.text))
        if token.kind == lexer.STRING:
            return Literal(lexer.unquote(token.text))
        if token.kind == lexer.BOOL:
            return Literal(token.text.upper() == "TRUE")
        if token.kind == lexer.ERROR:
            return Literal(ERRORS_BY_CODE[token.text])
        if token.kind == lexer.REF:
            return self.reference(token)
        if token.kind == lexer.NAME:
            return self.call(token)
        if token.kind == lexer.LPAREN:
            node = self.expression(0)
            self.expect(lexer.RPAREN)
            return node
        raise FormulaSyntaxError(f"unexpected {token.text or 'end of formula'!r}", token.pos)

    def reference(self, token):
        start = self._cell(token)
        if self.peek().kind != lexer.COLON:
            return Ref(start)
        self.advance()
        end = self._cell(self.expect(lexer.REF))
        return Range(RangeRef.from_corners(start, end))

    def _cell(self, token):
        try:
            return parse_ref(token.text)
        except AddressError as error:
            raise FormulaSyntaxError(str(error), token.pos) from None

    def call(self, token):
        if self.peek().kind != lexer.LPAREN:
            return Name(token.text.upper())
        self.advance()
        args = []
        if self.peek().kind != lexer.RPAREN:
            args.append(self.expression(0))
            while self.peek().kind == lexer.COMMA:
                self.advance()
                args.append(self.expression(0))
        self.expect(lexer.RPAREN)
        return Call(token.text.upper(), tuple(args))
