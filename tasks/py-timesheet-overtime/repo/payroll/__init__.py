"""Pay for a timesheet under simple overtime rules."""
from .rules import OvertimeRule
from .pay import weekly_pay, total_pay

__all__ = ["OvertimeRule", "weekly_pay", "total_pay"]
