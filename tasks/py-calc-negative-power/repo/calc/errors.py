"""Errors carry the 0-based column of the offending input where one is known."""


class CalcError(Exception):
    def __init__(self, message, position=None):
        if position is not None:
            message = f"{message} at column {position}"
        super().__init__(message)
        self.position = position


class ParseError(CalcError):
    """The input is not a well-formed expression."""


class EvalError(CalcError):
    """The expression is well-formed but cannot be evaluated (unknown name, division by zero)."""
