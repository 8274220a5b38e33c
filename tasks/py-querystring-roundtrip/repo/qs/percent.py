"""Percent-encoding (RFC 3986) of text as UTF-8."""
import string

UNRESERVED = frozenset(string.ascii_letters + string.digits + "-._~")
_HEX = frozenset(string.hexdigits)


def quote(text, safe=""):
    """Percent-encode ``text``.

    Characters are encoded as UTF-8 and every byte outside the unreserved set (and outside
    ``safe``) becomes ``%XX`` with upper-case hex digits.
    """
    keep = UNRESERVED | frozenset(safe)
    out = []
    for char in text:
        if char in keep:
            out.append(char)
        else:
            out.extend(f"%{byte:02X}" for byte in char.encode("utf-8"))
    return "".join(out)


def unquote(text):
    """Decode ``%XX`` escapes; the decoded bytes are interpreted as UTF-8.

    A ``%`` that is not followed by two hex digits is kept literally, and byte sequences that
    are not valid UTF-8 decode to U+FFFD.
    """
    out = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "%" and len(text) - i >= 3 and text[i + 1] in _HEX and text[i + 2] in _HEX:
            out.append(chr(int(text[i + 1 : i + 3], 16)))
            i += 3
        else:
            out.append(char)
            i += 1
    return "".join(out)
