"""Exceptions raised by meterly. Each one is a ``BillingError``."""


class BillingError(Exception):
    """Base class of every error meterly raises on purpose."""


class CurrencyMismatch(BillingError):
    """Two amounts in different currencies were combined."""

    def __init__(self, left, right):
        super().__init__(f"cannot combine {left} and {right}")
        self.left = left
        self.right = right


class UnknownPlan(BillingError):
    """A plan code is not in the catalog."""


class UnknownCustomer(BillingError):
    """A customer id is not known to the engine."""


class InvalidCoupon(BillingError):
    """A coupon is malformed or cannot be applied."""


class InvalidTransition(BillingError):
    """A subscription cannot move to the requested state."""


class StoreError(BillingError):
    """The persisted state cannot be read or written."""
