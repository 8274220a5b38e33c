"""Overtime: minutes past the weekly threshold are paid at a multiplier."""
from dataclasses import dataclass


@dataclass(frozen=True)
class OvertimeRule:
    weekly_threshold_minutes: int = 40 * 60
    multiplier: float = 1.5

    def split(self, minutes):
        """(regular, overtime) minutes of one week."""
        regular = min(minutes, self.weekly_threshold_minutes)
        return regular, minutes - regular
