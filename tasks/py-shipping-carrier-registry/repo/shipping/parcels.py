"""Parcels and billable weight."""
from dataclasses import dataclass
from decimal import Decimal

#: Volumetric divisor: cubic centimetres per billable kilogram.
VOLUMETRIC_DIVISOR = Decimal(5000)


@dataclass(frozen=True)
class Parcel:
    """A box with its actual weight (kg) and outer dimensions (cm)."""

    weight_kg: float
    length_cm: float = 0
    width_cm: float = 0
    height_cm: float = 0

    def volumetric_weight(self):
        volume = Decimal(str(self.length_cm)) * Decimal(str(self.width_cm)) * Decimal(str(self.height_cm))
        return volume / VOLUMETRIC_DIVISOR

    def billable_weight(self):
        """The larger of actual and volumetric weight, in kg."""
        return max(Decimal(str(self.weight_kg)), self.volumetric_weight())
