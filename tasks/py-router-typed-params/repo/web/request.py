"""Incoming requests."""
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit


@dataclass
class Request:
    method: str
    target: str  # path plus optional query string, as on the request line
    headers: dict = field(default_factory=dict)
    body: bytes = b""
    params: dict = field(default_factory=dict)  # filled in by the router

    @property
    def path(self):
        return urlsplit(self.target).path or "/"

    @property
    def query(self):
        """{name: [values]} from the query string."""
        return parse_qs(urlsplit(self.target).query, keep_blank_values=True)
