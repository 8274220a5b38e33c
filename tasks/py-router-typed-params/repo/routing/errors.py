"""Routing errors."""


class RouteError(ValueError):
    """A route is declared wrongly (bad template, duplicate name) or cannot be built."""


class NotFound(LookupError):
    """No route matches the path."""


class MethodNotAllowed(LookupError):
    """Some route matches the path, but not for this method. `allowed` lists the methods that would."""

    def __init__(self, path, allowed):
        super().__init__(f"{path}: method not allowed (allowed: {', '.join(allowed)})")
        self.allowed = tuple(allowed)
