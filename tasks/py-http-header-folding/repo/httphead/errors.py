"""Errors raised while parsing headers."""


class HeaderParseError(ValueError):
    """A header block is malformed. `line` is the 1-based line number, or None."""

    def __init__(self, message, line=None):
        if line is not None:
            message = f"line {line}: {message}"
        super().__init__(message)
        self.line = line
