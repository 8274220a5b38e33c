"""The Router: an ordered list of routes; the first route that matches wins."""
from dataclasses import dataclass

from .errors import MethodNotAllowed, NotFound, RouteError
from .pattern import PathPattern


@dataclass(frozen=True)
class Route:
    methods: tuple
    pattern: PathPattern
    handler: object
    name: str | None = None


@dataclass(frozen=True)
class Match:
    route: Route
    params: dict

    @property
    def handler(self):
        return self.route.handler


class Router:
    def __init__(self):
        self.routes = []
        self._named = {}

    def add(self, path, handler, methods=("GET",), name=None):
        """Register `handler` for `path`; HEAD is implied by GET."""
        methods = tuple(m.upper() for m in methods)
        if "GET" in methods and "HEAD" not in methods:
            methods += ("HEAD",)
        if name is not None and name in self._named:
            raise RouteError(f"route name {name!r} is already used by {self._named[name].pattern.template}")
        route = Route(methods, PathPattern(path), handler, name)
        self.routes.append(route)
        if name is not None:
            self._named[name] = route
        return route

    def match(self, method, path):
        """The first route matching `path` and `method`.

        Raises NotFound when no route matches the path, MethodNotAllowed when routes match the
        path but none accepts the method.
        """
        method = method.upper()
        allowed = []
        for route in self.routes:
            params = route.pattern.match(path)
            if params is None:
                continue
            if method in route.methods:
                return Match(route, params)
            allowed.extend(m for m in route.methods if m not in allowed)
        if allowed:
            raise MethodNotAllowed(path, allowed)
        raise NotFound(path)

    def url_for(self, name, **params):
        """Build the path of the route called `name`."""
        try:
            route = self._named[name]
        except KeyError:
            raise RouteError(f"no route named {name!r}") from None
        return route.pattern.build(params)
