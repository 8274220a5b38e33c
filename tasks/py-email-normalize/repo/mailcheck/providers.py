"""Mailbox providers whose addressing rules we know.

``plus_tags``: everything from the first ``+`` of the local part is a tag the provider
ignores. ``ignore_dots``: dots in the local part are ignored. ``aliases``: domains that are
the same mailbox namespace.
"""

PROVIDERS = {
    "gmail.com": {"plus_tags": True, "ignore_dots": True, "aliases": ["googlemail.com"]},
    "outlook.com": {"plus_tags": True, "ignore_dots": False, "aliases": ["hotmail.com", "live.com"]},
    "fastmail.com": {"plus_tags": True, "ignore_dots": False, "aliases": []},
    "yahoo.com": {"plus_tags": False, "ignore_dots": False, "aliases": []},
}

_ALIAS_TO_PRIMARY = {alias: primary for primary, info in PROVIDERS.items() for alias in info["aliases"]}


def provider_for(domain):
    """``(primary_domain, rules)`` for a known provider domain, else ``(domain, None)``."""
    primary = _ALIAS_TO_PRIMARY.get(domain, domain)
    return primary, PROVIDERS.get(primary)
