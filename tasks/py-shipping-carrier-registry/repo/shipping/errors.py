"""Shipping errors."""


class ShippingError(Exception):
    """Base class of shipping errors."""


class UnknownCarrierError(ShippingError, KeyError):
    """No carrier with that name."""


class InvalidShipmentError(ShippingError, ValueError):
    """The carrier cannot take this shipment (weight, distance or service limits)."""
