"""Built-in defaults and dict merging."""
import copy

DEFAULTS = {
    "app": {"name": "shop", "debug": False},
    "database": {"host": "localhost", "port": 5432, "pool": {"size": 5, "timeout": 30.0}},
    "cache": {"enabled": True, "ttl": 300},
}

#: Dotted keys that must be set (non-empty) after loading.
REQUIRED = ("app.name", "database.host")


def deep_merge(base, override):
    """A new dict: ``override`` merged into ``base`` recursively (nested dicts are merged)."""
    result = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(result.get(key), dict):
            result[key] = deep_merge(result[key], value)
        else:
            result[key] = copy.deepcopy(value)
    return result
