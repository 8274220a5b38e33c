"""Build a Config from INI text."""
from .config import Config
from .errors import ParseError
from .lexer import CONTINUATION, OPTION, SECTION, tokenize


def parse(text, defaults=None):
    """Parse ``text`` and return a :class:`Config`.

    Section names are case-sensitive; option names are case-insensitive (stored through
    :meth:`Config.optionxform`). ``defaults`` maps option names to values used when a section
    lacks them.
    """
    config = Config(defaults)
    section = None
    last_key = None
    for kind, lineno, payload in tokenize(text):
        if kind == SECTION:
            if config.has_section(payload):
                raise ParseError(lineno, f"duplicate section {payload!r}")
            config.add_section(payload)
            section, last_key = payload, None
        elif kind == OPTION:
            if section is None:
                raise ParseError(lineno, "option outside of any section")
            key, value = payload
            config.set(section, key, value)
            last_key = key
        elif kind == CONTINUATION:
            if last_key is None:
                raise ParseError(lineno, "continuation line without an option")
            previous = config.get(section, last_key)
            config.set(section, last_key, f"{previous}\n{payload}" if previous else payload)
    return config
