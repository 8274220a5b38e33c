"""Cron errors."""


class CronError(ValueError):
    """Invalid cron expression, or a schedule that never fires."""
