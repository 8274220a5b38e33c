"""Loading settings and reading values by dotted key."""
import json

from .defaults import DEFAULTS, REQUIRED, deep_merge

_MISSING = object()


class MissingSettingError(KeyError):
    """A required setting is absent or empty."""


def get_setting(settings, key, default=None):
    """Value at dotted ``key`` (``"database.pool.size"``), or ``default`` when any part is missing."""
    node = settings
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            return default
        node = node[part]
    return node


def set_setting(settings, key, value):
    """Set dotted ``key`` in place, creating intermediate dicts."""
    parts = key.split(".")
    node = settings
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = value


def load_settings(source=None, defaults=DEFAULTS):
    """Settings from a JSON string or a dict, merged over ``defaults``.

    Raises :class:`MissingSettingError` when a key listed in ``REQUIRED`` is missing or empty.
    """
    if source is None:
        data = {}
    elif isinstance(source, str):
        data = json.loads(source)
    else:
        data = dict(source)
    settings = deep_merge(defaults, data)
    for key in REQUIRED:
        if get_setting(settings, key) in (None, ""):
            raise MissingSettingError(key)
    return settings
