"""Tokenizer for path expressions such as ``$.store.book[0]['title']``."""
from collections import namedtuple

from .errors import JsonPathError

Token = namedtuple("Token", "kind value position")

ROOT, DOT, NAME, LBRACKET, RBRACKET, INT, STRING, END = (
    "ROOT", "DOT", "NAME", "LBRACKET", "RBRACKET", "INT", "STRING", "END")

_SIMPLE = {"$": ROOT, ".": DOT, "[": LBRACKET, "]": RBRACKET}


def _is_name_char(char):
    return char.isalnum() or char in "_-"


def tokenize(path):
    """Split ``path`` into tokens, ending with an END token."""
    tokens = []
    i = 0
    while i < len(path):
        char = path[i]
        if char in _SIMPLE:
            tokens.append(Token(_SIMPLE[char], char, i))
            i += 1
        elif char.isdigit():
            start = i
            while i < len(path) and path[i].isdigit():
                i += 1
            tokens.append(Token(INT, int(path[start:i]), start))
        elif char in "'\"":
            end = path.find(char, i + 1)
            if end == -1:
                raise JsonPathError("unterminated string", i)
            tokens.append(Token(STRING, path[i + 1:end], i))
            i = end + 1
        elif _is_name_char(char):
            start = i
            while i < len(path) and _is_name_char(path[i]):
                i += 1
            tokens.append(Token(NAME, path[start:i], start))
        elif char.isspace():
            i += 1
        else:
            raise JsonPathError(f"unexpected character {char!r}", i)
    tokens.append(Token(END, None, len(path)))
    return tokens
