"""The App: route registration by decorator and request dispatch."""
from routing import MethodNotAllowed, NotFound, Router

from .response import Response, json_response


class App:
    def __init__(self):
        self.router = Router()

    def route(self, path, methods=("GET",), name=None):
        """Decorator: `@app.route("/items/{item_id}", name="item")`.

        The handler is called as handler(request, **params).
        """
        def register(handler):
            self.router.add(path, handler, methods, name or handler.__name__)
            return handler

        return register

    def url_for(self, name, **params):
        return self.router.url_for(name, **params)

    def handle(self, request):
        """Dispatch `request`; 404 and 405 become JSON error responses."""
        try:
            match = self.router.match(request.method, request.path)
        except NotFound:
            return json_response({"error": "not found", "path": request.path}, 404)
        except MethodNotAllowed as exc:
            response = json_response({"error": "method not allowed"}, 405)
            response.headers["Allow"] = ", ".join(exc.allowed)
            return response
        request.params = match.params
        result = match.handler(request, **match.params)
        if isinstance(result, Response):
            return result
        return json_response(result)
