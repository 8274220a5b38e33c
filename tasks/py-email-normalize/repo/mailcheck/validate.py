"""Checking the syntax of each part of an address."""
import re

from .errors import AddressError
from .parse import parse_address

# RFC 5322 "atext": the characters allowed unquoted in a local part.
_ATEXT = re.compile(r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$")
_LABEL = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")
MAX_LOCAL = 64


def _check_local(local, address):
    if len(local) > MAX_LOCAL:
        raise AddressError("local_too_long", address)
    if len(local) >= 2 and local[0] == local[-1] == '"':
        body = local[1:-1]
        # Inside quotes anything printable goes, but '"' and '\' must be escaped.
        i = 0
        while i < len(body):
            ch = body[i]
            if ch == "\\":
                i += 2
                continue
            if ch == '"' or not ch.isprintable():
                raise AddressError("bad_quoted_local", address)
            i += 1
        return
    for atom in local.split("."):
        if not atom:
            raise AddressError("empty_atom", address)
        if not _ATEXT.match(atom):
            raise AddressError("bad_local_char", address)


def _check_domain(domain, address):
    labels = domain.rstrip(".").split(".")
    if len(labels) < 2:
        raise AddressError("no_tld", address)
    for label in labels:
        if not _LABEL.match(label):
            raise AddressError("bad_domain_label", address)
    if labels[-1].isdigit():
        raise AddressError("numeric_tld", address)


def validate(address):
    """Parse and check ``address``; return the :class:`Address` or raise :class:`AddressError`."""
    parsed = parse_address(address)
    _check_local(parsed.local, address)
    _check_domain(parsed.domain, address)
    return parsed


def is_valid(address):
    """True when :func:`validate` accepts ``address``."""
    try:
        validate(address)
    except AddressError:
        return False
    return True
