"""Application settings: defaults, JSON files and environment overrides."""
from .defaults import DEFAULTS, deep_merge
from .env import apply_env_overrides
from .loader import MissingSettingError, get_setting, load_settings, set_setting

__all__ = [
    "DEFAULTS", "MissingSettingError", "apply_env_overrides", "deep_merge", "get_setting",
    "load_settings", "set_setting",
]
