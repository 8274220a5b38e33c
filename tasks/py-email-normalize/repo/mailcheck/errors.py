"""Errors raised by mailcheck."""


class AddressError(ValueError):
    """An address is malformed. ``reason`` is a short machine-readable code."""

    def __init__(self, reason, address):
        super().__init__(f"{reason}: {address!r}")
        self.reason = reason
        self.address = address
