"""Recursive-descent parser with Python's precedence rules.

    expr   := term (('+' | '-') term)*
    term   := factor (('*' | '/' | '%') factor)*
    factor := ('+' | '-') factor | power
    power  := atom ('**' factor)?          # right-associative; binds tighter than unary minus
    atom   := NUMBER | NAME | NAME '(' [expr (',' expr)*] ')' | '(' expr ')'

So `-2 ** 2` is `-(2 ** 2)`, `2 ** -1` is `2 ** (-1)` and `2 ** 3 ** 2` is `2 ** (3 ** 2)`.
"""
from .errors import ParseError
from .nodes import Binary, Call, Num, Unary, Var
from .tokens import COMMA, EOF, LPAREN, NAME, NUMBER, OP, RPAREN, tokenize


class _Parser:
    def __init__(self, tokens):
        self.tokens = tokens
        self.index = 0

    @property
    def current(self):
        return self.tokens[self.index]

    def advance(self):
        token = self.current
        self.index += 1
        return token

    def expect(self, kind):
        if self.current.kind != kind:
            found = self.current.text or "end of input"
            raise ParseError(f"expected {kind!r}, found {found!r}", self.current.position)
        return self.advance()

    def at_op(self, *ops):
        return self.current.kind == OP and self.current.text in ops

    def expr(self):
        node = self.term()
        while self.at_op("+", "-"):
            op = self.advance().text
            node = Binary(op, node, self.term())
        return node

    def term(self):
        node = self.factor()
        while self.at_op("*", "/", "%"):
            op = self.advance().text
            node = Binary(op, node, self.factor())
        return node

    def factor(self):
        if self.at_op("+", "-"):
            op = self.advance().text
            return Unary(op, self.factor())
        return self.power()

    def power(self):
        base = self.atom()
        if self.at_op("**"):
            self.advance()
            return Binary("**", base, self.factor())
        return base

    def atom(self):
        token = self.current
        if token.kind == NUMBER:
            self.advance()
            return Num(token.value)
        if token.kind == NAME:
            self.advance()
            if self.current.kind == LPAREN:
                self.advance()
                args = []
                if self.current.kind != RPAREN:
                    args.append(self.expr())
                    while self.current.kind == COMMA:
                        self.advance()
                        args.append(self.expr())
                self.expect(RPAREN)
                return Call(token.text, tuple(args))
            return Var(token.text)
        if token.kind == LPAREN:
            self.advance()
            node = self.expr()
            self.expect(RPAREN)
            return node
        found = token.text or "end of input"
        raise ParseError(f"unexpected {found!r}", token.position)


def parse(source):
    """Parse `source` into a syntax tree; ParseError on malformed input."""
    parser = _Parser(tokenize(source))
    node = parser.expr()
    if parser.current.kind != EOF:
        raise ParseError(f"unexpected {parser.current.text!r}", parser.current.position)
    return node
