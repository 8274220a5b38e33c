"""Price quotes per carrier."""
from decimal import ROUND_HALF_UP, Decimal

from .errors import InvalidShipmentError, UnknownCarrierError

CARRIERS = ("courier", "freight", "postal")


def _money(value):
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def quote(carrier, weight_kg, distance_km, express=False):
    """Price in EUR (a Decimal rounded to cents) for shipping with ``carrier``.

    Raises UnknownCarrierError for an unknown carrier and InvalidShipmentError when the shipment
    breaks a limit (non-positive weight, negative distance, or a carrier-specific rule).
    """
    weight = Decimal(str(weight_kg))
    distance = Decimal(str(distance_km))
    if carrier not in CARRIERS:
        raise UnknownCarrierError(carrier)
    if weight <= 0:
        raise InvalidShipmentError("weight must be positive")
    if distance < 0:
        raise InvalidShipmentError("distance must not be negative")

    if carrier == "postal":
        # Flat price bands, distance does not matter; express is a fixed surcharge.
        if weight > 30:
            raise InvalidShipmentError("postal parcels are limited to 30 kg")
        if weight <= 2:
            price = Decimal("4.50")
        elif weight <= 10:
            price = Decimal("9.90")
        else:
            price = Decimal("19.90")
        if express:
            price += Decimal("6.00")
    elif carrier == "courier":
        # Base fee plus per-kg and per-km components; express costs 50% more.
        price = Decimal("7.00") + weight * Decimal("0.80") + distance * Decimal("0.05")
        if express:
            price *= Decimal("1.5")
    else:  # freight
        # Priced per tonne-km with a minimum charge; heavy loads only, no express service.
        if weight < 50:
            raise InvalidShipmentError("freight needs at least 50 kg")
        if express:
            raise InvalidShipmentError("freight has no express service")
        price = max(Decimal("60.00"), weight * distance * Decimal("0.002"))
    return _money(price)


def quote_parcel(carrier, parcel, distance_km, express=False):
    """Quote for a :class:`~shipping.parcels.Parcel`, using its billable weight."""
    return quote(carrier, parcel.billable_weight(), distance_km, express)


def cheapest_quote(parcel, distance_km, express=False, carriers=None):
    """``(carrier, price)`` of the cheapest carrier that accepts the parcel.

    ``carriers`` defaults to every known carrier. Ties go to the alphabetically first carrier.
    Raises InvalidShipmentError when no carrier accepts the shipment.
    """
    offers = []
    for name in (carriers if carriers is not None else CARRIERS):
        try:
            offers.append((quote_parcel(name, parcel, distance_km, express), name))
        except InvalidShipmentError:
            continue
    if not offers:
        raise InvalidShipmentError("no carrier accepts this shipment")
    price, name = min(offers)
    return name, price
