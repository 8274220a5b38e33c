"""Business rule violations."""


class DomainError(Exception):
    """A command was refused by the business rules."""


class InsufficientFunds(DomainError):
    pass


class AccountClosedError(DomainError):
    pass


class AccountExistsError(DomainError):
    pass
