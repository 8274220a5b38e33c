"""URL routing: path templates with parameters, method dispatch and reverse URL building."""
from .errors import MethodNotAllowed, NotFound, RouteError
from .pattern import PathPattern
from .router import Match, Route, Router

__all__ = ["Match", "MethodNotAllowed", "NotFound", "PathPattern", "Route", "RouteError", "Router"]
