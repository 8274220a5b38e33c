"""Resolution errors."""


class UnknownPackage(LookupError):
    """A requirement names a package the registry does not have."""


class ConflictError(Exception):
    """No set of versions satisfies every constraint."""
