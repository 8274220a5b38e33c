"""A very small web framework on top of `routing` (no server: call App.handle with a Request)."""
from .app import App
from .request import Request
from .response import Response, json_response

__all__ = ["App", "Request", "Response", "json_response"]
