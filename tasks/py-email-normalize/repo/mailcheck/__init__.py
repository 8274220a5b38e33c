"""mailcheck: a small, RFC-lite e-mail address validator and normalizer.

We accept what real mail servers accept in practice (RFC 5321/5322 without comments,
folding whitespace or IP-literal domains) and normalize addresses for de-duplication.
"""
from .errors import AddressError
from .normalize import canonical, normalize
from .parse import Address, parse_address, split_address
from .validate import is_valid, validate

__all__ = [
    "Address", "AddressError", "canonical", "is_valid", "normalize", "parse_address",
    "split_address", "validate",
]
