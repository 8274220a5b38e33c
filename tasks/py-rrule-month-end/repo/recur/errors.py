"""Errors for malformed or unsupported rules."""


class RuleError(ValueError):
    """An RRULE string is malformed or uses an unsupported part."""
