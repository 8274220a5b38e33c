"""Turn INI text into a stream of (kind, lineno, payload) tokens."""
import re

SECTION = "section"
OPTION = "option"
CONTINUATION = "continuation"

_SECTION_RE = re.compile(r"^\[(?P<name>[^\]]+)\]\s*$")
_OPTION_RE = re.compile(r"^(?P<key>[^=:\s][^=:]*?)\s*[=:]\s*(?P<value>.*)$")


def strip_inline_comment(value):
    """Remove a ``;`` or ``#`` comment that is preceded by whitespace."""
    match = re.search(r"\s[;#]", value)
    return value[: match.start()].rstrip() if match else value.rstrip()


def tokenize(text):
    """Yield tokens; blank lines and full-line comments are skipped.

    Indented lines continue the value of the previous option.
    """
    from .errors import ParseError

    for lineno, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.lstrip()[0] in ";#":
            continue
        if raw[0] in " \t":
            yield CONTINUATION, lineno, strip_inline_comment(raw.strip())
            continue
        line = raw.strip()
        match = _SECTION_RE.match(line)
        if match:
            yield SECTION, lineno, match.group("name").strip()
            continue
        match = _OPTION_RE.match(line)
        if match:
            yield OPTION, lineno, (match.group("key").strip(), strip_inline_comment(match.group("value")))
            continue
        raise ParseError(lineno, f"cannot parse {line!r}")
