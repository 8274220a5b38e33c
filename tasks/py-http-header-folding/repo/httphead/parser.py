"""Parse a raw header block (the part of a message before the empty line)."""

from .errors import HeaderParseError
from .headers import Headers

_TOKEN_CHARS = set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def split_head(data):
    """Split raw message bytes into (header block text, body bytes).

    The header block ends at the first empty line (CRLF CRLF, or LF LF from lenient peers).
    Header bytes are decoded as ISO-8859-1, as RFC 7230 recommends.
    """
    for sep in (b"\r\n\r\n", b"\n\n"):
        index = data.find(sep)
        if index != -1:
            return data[:index].decode("iso-8859-1"), data[index + len(sep):]
    return data.decode("iso-8859-1"), b""


def _check_name(name, number):
    if not name or any(ch not in _TOKEN_CHARS for ch in name):
        raise HeaderParseError(f"invalid field name {name!r}", number)


def parse_headers(raw):
    """Parse header lines into a Headers object.

    `raw` is text or bytes (bytes go through split_head first; the body is ignored).
    Lines end in CRLF or LF. A line starting with a space or tab continues the previous field
    (obsolete line folding, RFC 7230 section 3.2.4): the fold is replaced by a single space.
    """
    if isinstance(raw, (bytes, bytearray)):
        raw, _ = split_head(bytes(raw))
    headers = Headers()
    name = value = None
    for number, line in enumerate(raw.replace("\r\n", "\n").split("\n"), start=1):
        if not line:
            continue
        if line[0] in " \t":
            if name is None:
                raise HeaderParseError("continuation line before the first field", number)
            value += line.strip()
            continue
        if name is not None:
            headers.add(name, value)
        if ":" not in line:
            raise HeaderParseError(f"missing ':' in {line!r}", number)
        name, value = line.split(":", 1)
        _check_name(name, number)
        value = value.strip()
    if name is not None:
        headers.add(name, value)
    return headers
