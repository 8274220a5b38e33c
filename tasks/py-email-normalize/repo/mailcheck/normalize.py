"""Normalizing addresses for storage and de-duplication."""
from .providers import provider_for
from .validate import validate


def normalize(address):
    """The address as we store it: trimmed, domain lower-cased (and without a trailing dot).

    The local part is case-sensitive per RFC 5321 and is kept as typed.
    """
    parsed = validate(address)
    return f"{parsed.local}@{parsed.domain.rstrip('.').lower()}"


def canonical(address):
    """A key that is equal for addresses delivered to the same mailbox.

    On top of :func:`normalize`: known providers' aliases map to one domain, their plus tags
    and (for Gmail) dots are dropped and their local parts lower-cased. Quoted local parts
    and unknown domains are left alone apart from the domain.
    """
    parsed = validate(address)
    domain, rules = provider_for(parsed.domain.rstrip(".").lower())
    local = parsed.local
    if rules is None or parsed.quoted:
        return f"{local}@{domain}"
    local = local.lower()
    if rules["plus_tags"] and "+" in local:
        local = local.split("+", 1)[0]
    if rules["ignore_dots"]:
        local = local.replace(".", "")
    return f"{local}@{domain}"
