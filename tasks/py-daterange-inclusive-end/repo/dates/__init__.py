"""Date ranges and business-day arithmetic."""
from .business import add_business_days, business_days, is_business_day
from .parse import parse_range
from .ranges import DateRange

__all__ = ["DateRange", "add_business_days", "business_days", "is_business_day", "parse_range"]
