"""A small arithmetic expression language: tokenizer, parser and evaluator.

    >>> from calc import evaluate
    >>> evaluate("2 * (x + 1) ** 2", {"x": 2})
    18
"""
from .errors import CalcError, EvalError, ParseError
from .evaluator import evaluate
from .parser import parse
from .printer import to_source
from .tokens import Token, tokenize

__all__ = [
    "CalcError", "EvalError", "ParseError", "Token", "evaluate", "parse", "to_source", "tokenize",
]
