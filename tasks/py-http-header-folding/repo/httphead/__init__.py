"""A tiny, dependency-free HTTP/1.1 header parser.

Typical use::

    from httphead import parse_headers
    headers = parse_headers(raw_bytes)
    headers.get("content-type")
"""
from .errors import HeaderParseError
from .headers import Headers
from .params import parse_content_type, parse_params
from .parser import parse_headers, split_head

__all__ = [
    "HeaderParseError",
    "Headers",
    "parse_content_type",
    "parse_headers",
    "parse_params",
    "split_head",
]
