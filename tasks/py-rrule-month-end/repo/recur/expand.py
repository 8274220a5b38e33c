"""Expanding a Rule from a start date into occurrence dates."""
from datetime import timedelta
from itertools import count as naturals

from . import dates
from .errors import RuleError
from .rule import Rule

# Safety valve: a rule whose parts can never match (e.g. BYMONTHDAY=31 every 2nd month starting
# in February) must not loop forever.
MAX_EMPTY_PERIODS = 1000


def _period_candidates(rule, dtstart, period):
    """Candidate dates of the `period`-th period (0 is the period containing dtstart)."""
    step = period * rule.interval
    if rule.freq == "DAILY":
        return [dtstart + timedelta(days=step)]
    if rule.freq == "WEEKLY":
        if not rule.byday:
            return [dtstart + timedelta(weeks=step)]
        monday = dates.start_of_week(dtstart) + timedelta(weeks=step)
        return [monday + timedelta(days=d) for d in rule.byday]
    if rule.freq == "MONTHLY":
        if not rule.bymonthday:
            return [dates.shift_months(dtstart, step)]
        year, month = dates.from_month_index(dates.month_index(dtstart.year, dtstart.month) + step)
        return sorted({dates.month_day(year, month, d) for d in rule.bymonthday} - {None})
    if rule.freq == "YEARLY":
        return [dates.shift_months(dtstart, 12 * step)]
    raise RuleError(f"unsupported FREQ {rule.freq!r}")


def expand(rule, dtstart, limit=None):
    """Occurrences of `rule` from `dtstart` (a date), in order, as a list.

    dtstart itself is the first occurrence when it matches the rule. Invalid dates (Feb 30)
    are skipped, never moved. COUNT counts occurrences actually produced; UNTIL is inclusive.
    Rules with neither COUNT nor UNTIL need `limit` (the most occurrences to return).
    """
    if not isinstance(rule, Rule):
        raise TypeError("expand() needs a Rule; use parse_rule() on strings")
    if rule.count is None and rule.until is None and limit is None:
        raise RuleError("an unbounded rule needs limit=")
    wanted = min(x for x in (rule.count, limit) if x is not None) if (rule.count or limit) else None
    found, empty = [], 0
    for period in naturals():
        candidates = [c for c in _period_candidates(rule, dtstart, period) if c is not None and c >= dtstart]
        empty = 0 if candidates else empty + 1
        if empty > MAX_EMPTY_PERIODS:
            break
        for candidate in candidates:
            if rule.until is not None and candidate > rule.until:
                return found
            found.append(candidate)
            if wanted is not None and len(found) >= wanted:
                return found
    return found


def between(rule, dtstart, after, before):
    """Occurrences with after <= date <= before (the rule must be bounded, or `before` bounds it)."""
    result = []
    for period in naturals():
        candidates = [c for c in _period_candidates(rule, dtstart, period) if c is not None and c >= dtstart]
        if candidates and min(candidates) > before:
            return result
        result.extend(c for c in candidates if after <= c <= before)
        if rule.count is not None and period > rule.count * 31:
            return result[: rule.count]
        if rule.until is not None and candidates and min(candidates) > rule.until:
            return [c for c in result if c <= rule.until]
