"""Shipping price quotes for parcels and freight."""
from .calculator import cheapest_quote, quote, quote_parcel
from .errors import InvalidShipmentError, ShippingError, UnknownCarrierError
from .parcels import Parcel

__all__ = [
    "InvalidShipmentError", "Parcel", "ShippingError", "UnknownCarrierError", "cheapest_quote",
    "quote", "quote_parcel",
]
