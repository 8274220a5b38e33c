"""URL query-string encoding and decoding (application/x-www-form-urlencoded)."""
from .decode import parse_qs, parse_qsl, unquote_plus
from .encode import quote_plus, urlencode
from .multidict import QueryDict
from .percent import quote, unquote

__all__ = ["QueryDict", "parse_qs", "parse_qsl", "quote", "quote_plus", "unquote", "unquote_plus", "urlencode"]
