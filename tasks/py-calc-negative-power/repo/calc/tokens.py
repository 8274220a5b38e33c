"""Tokenizer: turns source text into a list of Tokens ending with an EOF token."""
from dataclasses import dataclass

from .errors import ParseError

NUMBER, NAME, OP, LPAREN, RPAREN, COMMA, EOF = "NUMBER", "NAME", "OP", "(", ")", ",", "EOF"
OPERATORS = ("**", "+", "-", "*", "/", "%")


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    position: int

    @property
    def value(self):
        """Numeric value of a NUMBER token (int when it has no '.' or exponent)."""
        if any(ch in self.text for ch in ".eE"):
            return float(self.text)
        return int(self.text)


def _read_number(source, start):
    index = start
    if source[index] in "+-":
        index += 1
    while index < len(source) and (source[index].isdigit() or source[index] == "."):
        index += 1
    if index < len(source) and source[index] in "eE":
        exp = index + 1
        if exp < len(source) and source[exp] in "+-":
            exp += 1
        if exp < len(source) and source[exp].isdigit():
            index = exp
            while index < len(source) and source[index].isdigit():
                index += 1
    text = source[start:index]
    if text.count(".") > 1:
        raise ParseError(f"malformed number {text!r}", start)
    return text, index


def _starts_negative_literal(source, index, previous):
    """A '-' directly followed by a digit, where no operand precedes it, starts a negative literal
    (so that '-2' is a single NUMBER token)."""
    return (
        source[index] == "-"
        and index + 1 < len(source)
        and (source[index + 1].isdigit() or source[index + 1] == ".")
        and (previous is None or previous.kind in (OP, LPAREN, COMMA))
    )


def tokenize(source):
    """Split `source` into tokens. Whitespace separates tokens and is otherwise ignored."""
    tokens = []
    index = 0
    while index < len(source):
        ch = source[index]
        previous = tokens[-1] if tokens else None
        if ch.isspace():
            index += 1
        elif ch.isdigit() or ch == "." or _starts_negative_literal(source, index, previous):
            text, index = _read_number(source, index)
            tokens.append(Token(NUMBER, text, index - len(text)))
        elif ch.isalpha() or ch == "_":
            start = index
            while index < len(source) and (source[index].isalnum() or source[index] == "_"):
                index += 1
            tokens.append(Token(NAME, source[start:index], start))
        elif source.startswith("**", index):
            tokens.append(Token(OP, "**", index))
            index += 2
        elif ch in "+-*/%":
            tokens.append(Token(OP, ch, index))
            index += 1
        elif ch in "(),":
            tokens.append(Token(ch, ch, index))
            index += 1
        else:
            raise ParseError(f"unexpected character {ch!r}", index)
    tokens.append(Token(EOF, "", len(source)))
    return tokens
