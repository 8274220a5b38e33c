"""Errors of the jpath package."""


class JsonPathError(ValueError):
    """The path expression is malformed; ``position`` is the offending character offset."""

    def __init__(self, message, position=None):
        if position is not None:
            message = f"{message} at position {position}"
        super().__init__(message)
        self.position = position
