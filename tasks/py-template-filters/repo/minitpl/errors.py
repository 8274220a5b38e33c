"""Errors raised while compiling or rendering a template."""


class TemplateError(Exception):
    """A template is malformed or cannot be rendered; ``line`` is 1-based when known."""

    def __init__(self, message, line=None):
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
