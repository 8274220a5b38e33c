"""Parse five-field cron expressions and compute their next run times."""
from .errors import CronError
from .fields import parse_field
from .schedule import CronSchedule

__all__ = ["CronError", "CronSchedule", "parse_field"]
