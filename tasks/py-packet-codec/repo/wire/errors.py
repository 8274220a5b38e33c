"""Decoding errors."""


class DecodeError(ValueError):
    """A frame or payload is malformed."""
