"""Parameters of fields such as Content-Type: `text/html; charset="utf-8"`."""

from .errors import HeaderParseError


def _split_unquoted(text, sep):
    """Split on `sep` outside double-quoted strings."""
    parts, current, quoted, escaped = [], [], False, False
    for ch in text:
        if escaped:
            current.append(ch)
            escaped = False
        elif ch == "\\" and quoted:
            current.append(ch)
            escaped = True
        elif ch == '"':
            current.append(ch)
            quoted = not quoted
        elif ch == sep and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    if quoted:
        raise HeaderParseError(f"unterminated quoted string in {text!r}")
    parts.append("".join(current))
    return parts


def _unquote(value):
    if len(value) >= 2 and value[0] == value[-1] == '"':
        out, escaped = [], False
        for ch in value[1:-1]:
            if escaped:
                out.append(ch)
                escaped = False
            elif ch == "\\":
                escaped = True
            else:
                out.append(ch)
        return "".join(out)
    return value


def parse_params(text):
    """`a=1; b="x;y"` -> {"a": "1", "b": "x;y"}. Names are lower-cased; empty items are skipped."""
    params = {}
    for item in _split_unquoted(text, ";"):
        item = item.strip()
        if not item:
            continue
        if "=" not in item:
            raise HeaderParseError(f"parameter without a value: {item!r}")
        name, value = item.split("=", 1)
        params[name.strip().lower()] = _unquote(value.strip())
    return params


def parse_content_type(value):
    """`Text/HTML; Charset=UTF-8` -> ("text/html", {"charset": "UTF-8"})."""
    media, _, rest = value.partition(";")
    media = media.strip().lower()
    if media.count("/") != 1:
        raise HeaderParseError(f"invalid media type: {media!r}")
    return media, parse_params(rest)
