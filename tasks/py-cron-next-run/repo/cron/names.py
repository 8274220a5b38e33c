"""Month and weekday names accepted in cron fields."""
import re

from .errors import CronError

MONTH_NAMES = {name: i for i, name in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1)}
WEEKDAY_NAMES = {name: i for i, name in enumerate(["sun", "mon", "tue", "wed", "thu", "fri", "sat"])}

ALIASES = {
    "@yearly": "0 0 1 1 *",
    "@annually": "0 0 1 1 *",
    "@monthly": "0 0 1 * *",
    "@weekly": "0 0 * * 0",
    "@daily": "0 0 * * *",
    "@midnight": "0 0 * * *",
    "@hourly": "0 * * * *",
}


def replace_names(text, names):
    """Replace three-letter names (any case) by their numbers: ``"mon-fri"`` -> ``"1-5"``."""
    def substitute(match):
        word = match.group(0).lower()
        if names is None or word not in names:
            raise CronError(f"unknown name {match.group(0)!r}")
        return str(names[word])

    return re.sub(r"[A-Za-z]+", substitute, text)
