"""The parsed configuration and its typed accessors."""
from .errors import NoOptionError, NoSectionError

_MISSING = object()

BOOLEAN_STATES = {
    "1": True, "yes": True, "true": True, "on": True,
    "0": False, "no": False, "false": False, "off": False,
}


class Config:
    """Sections of options. Option names are case-insensitive, section names are not."""

    def __init__(self, defaults=None):
        self._sections = {}
        self._defaults = {self.optionxform(k): str(v) for k, v in (defaults or {}).items()}

    @staticmethod
    def optionxform(name):
        """Normalize an option name; every lookup and store goes through this."""
        return name.strip().lower()

    def sections(self):
        """Section names in file order."""
        return list(self._sections)

    def has_section(self, section):
        return section in self._sections

    def add_section(self, section):
        self._sections.setdefault(section, {})

    def options(self, section):
        """Option names of a section (normalized), defaults included."""
        return list(dict.fromkeys([*self._section(section), *self._defaults]))

    def has_option(self, section, option):
        key = self.optionxform(option)
        return key in self._section(section) or key in self._defaults

    def set(self, section, option, value):
        self._section(section)[self.optionxform(option)] = str(value)

    def get(self, section, option, fallback=_MISSING):
        """Raw string value; ``fallback`` is returned when the option is missing."""
        values = self._section(section)
        key = option
        if key in values:
            return values[key]
        if key in self._defaults:
            return self._defaults[key]
        if fallback is not _MISSING:
            return fallback
        raise NoOptionError(f"no option {option!r} in section {section!r}")

    def getint(self, section, option, fallback=_MISSING):
        value = self.get(section, option, fallback)
        return value if value is fallback else int(value)

    def getfloat(self, section, option, fallback=_MISSING):
        value = self.get(section, option, fallback)
        return value if value is fallback else float(value)

    def getboolean(self, section, option, fallback=_MISSING):
        value = self.get(section, option, fallback)
        if value is fallback:
            return value
        try:
            return BOOLEAN_STATES[value.lower()]
        except KeyError:
            raise ValueError(f"not a boolean: {value!r}") from None

    def _section(self, section):
        try:
            return self._sections[section]
        except KeyError:
            raise NoSectionError(f"no section {section!r}") from None
