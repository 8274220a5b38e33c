"""A small INI-file reader with typed getters."""
from .config import Config
from .errors import IniError, NoOptionError, NoSectionError, ParseError
from .parser import parse

__all__ = ["Config", "IniError", "NoOptionError", "NoSectionError", "ParseError", "parse"]
