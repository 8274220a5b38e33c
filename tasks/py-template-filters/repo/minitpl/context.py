"""Variable scopes used while rendering."""


class Context:
    """A stack of scopes; inner scopes (loop variables) shadow outer ones."""

    def __init__(self, data):
        self._scopes = [dict(data)]

    def push(self, scope):
        self._scopes.append(dict(scope))

    def pop(self):
        self._scopes.pop()

    def resolve(self, path):
        """Value of a dotted ``path`` (``user.address.city``); ``None`` when any part is missing.

        Each part is looked up as a mapping key first, then as an attribute.
        """
        head, *rest = path.split(".")
        for scope in reversed(self._scopes):
            if head in scope:
                value = scope[head]
                break
        else:
            return None
        for part in rest:
            if isinstance(value, dict):
                value = value.get(part)
            else:
                value = getattr(value, part, None)
            if value is None:
                return None
        return value
