"""Exceptions raised by iniconf."""


class IniError(Exception):
    """Base class of every iniconf error."""


class ParseError(IniError):
    """The text is not valid INI; carries the 1-based line number."""

    def __init__(self, lineno, message):
        super().__init__(f"line {lineno}: {message}")
        self.lineno = lineno


class NoSectionError(IniError, KeyError):
    """The requested section does not exist."""


class NoOptionError(IniError, KeyError):
    """The requested option does not exist in its section."""
