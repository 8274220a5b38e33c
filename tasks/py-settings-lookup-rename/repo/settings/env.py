"""Overriding settings from environment variables."""
from .loader import get_setting, set_setting

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _coerce(raw, current):
    """Convert the string ``raw`` to the type of the ``current`` value."""
    if isinstance(current, bool):
        lowered = raw.strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise ValueError(f"not a boolean: {raw!r}")
    if isinstance(current, int):
        return int(raw)
    if isinstance(current, float):
        return float(raw)
    return raw


def apply_env_overrides(settings, environ, prefix="APP_"):
    """Apply ``PREFIX_SECTION__KEY=value`` variables (``APP_DATABASE__PORT=6543``) in place.

    Double underscores separate levels; names are lower-cased. Values are converted to the type
    of the existing setting. Returns the list of dotted keys that were overridden, sorted.
    """
    changed = []
    for name, raw in environ.items():
        if not name.startswith(prefix):
            continue
        key = ".".join(part.lower() for part in name[len(prefix):].split("__"))
        current = get_setting(settings, key)
        set_setting(settings, key, _coerce(raw, current))
        changed.append(key)
    return sorted(changed)
