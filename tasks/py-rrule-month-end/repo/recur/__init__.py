"""RRULE-lite: parse a subset of RFC 5545 recurrence rules and expand them into dates.

Supported: FREQ (DAILY, WEEKLY, MONTHLY, YEARLY), INTERVAL, COUNT, UNTIL, BYDAY (weekly rules
only) and BYMONTHDAY (monthly rules only, -1 meaning the last day of the month).
"""
from .errors import RuleError
from .expand import between, expand
from .rule import Rule, parse_rule

__all__ = ["Rule", "RuleError", "between", "expand", "parse_rule"]
