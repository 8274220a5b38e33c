"""Splitting an address into its local part and domain."""
from dataclasses import dataclass

from .errors import AddressError

MAX_LENGTH = 254


@dataclass(frozen=True)
class Address:
    """A parsed address. ``local`` keeps its quotes when it was quoted."""

    local: str
    domain: str

    @property
    def quoted(self):
        """True when the local part is a quoted string (``"john smith"@example.com``)."""
        return len(self.local) >= 2 and self.local[0] == self.local[-1] == '"'

    def __str__(self):
        return f"{self.local}@{self.domain}"


def split_address(address):
    """Split ``address`` into ``(local, domain)`` around the ``@`` that separates them.

    A quoted local part may itself contain ``@`` (``"john@home"@example.com``); the domain
    never does, so the separator is the last ``@`` of the address.
    """
    if "@" not in address:
        raise AddressError("missing_at", address)
    local, _, domain = address.partition("@")
    if not local:
        raise AddressError("empty_local", address)
    if not domain:
        raise AddressError("empty_domain", address)
    return local, domain


def parse_address(address):
    """Parse ``address`` (surrounding whitespace ignored) into an :class:`Address`."""
    address = address.strip()
    if len(address) > MAX_LENGTH:
        raise AddressError("too_long", address)
    local, domain = split_address(address)
    return Address(local, domain)
