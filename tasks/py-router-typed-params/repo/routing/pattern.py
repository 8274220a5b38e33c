"""Path templates: '/users/{user_id}/posts/{post_id}'.

A parameter matches one non-empty path segment (no '/'). Everything outside braces is literal.
"""
import re
from urllib.parse import quote, unquote

from .errors import RouteError

_PARAM = re.compile(r"\{([^{}]*)\}")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class PathPattern:
    def __init__(self, template):
        if not template.startswith("/"):
            raise RouteError(f"route template must start with '/': {template!r}")
        self.template = template
        self.names = []
        regex = []
        position = 0
        for match in _PARAM.finditer(template):
            regex.append(re.escape(template[position:match.start()]))
            name = match.group(1)
            if not _NAME.match(name):
                raise RouteError(f"invalid parameter name {name!r} in {template!r}")
            if name in self.names:
                raise RouteError(f"parameter {name!r} appears twice in {template!r}")
            self.names.append(name)
            regex.append(f"(?P<{name}>[^/]+)")
            position = match.end()
        regex.append(re.escape(template[position:]))
        self.regex = re.compile("^" + "".join(regex) + "$")

    @property
    def is_static(self):
        return not self.names

    def match(self, path):
        """Parameters of `path` as a dict (percent-decoded), or None when it doesn't match."""
        found = self.regex.match(path)
        if found is None:
            return None
        return {name: unquote(value) for name, value in found.groupdict().items()}

    def build(self, params):
        """The path for `params` (each value percent-encoded); RouteError on missing/extra ones."""
        missing = [n for n in self.names if n not in params]
        extra = sorted(set(params) - set(self.names))
        if missing or extra:
            raise RouteError(
                f"{self.template}: missing parameters {missing}, unexpected parameters {extra}"
            )

        def substitute(match):
            value = str(params[match.group(1)])
            if not value:
                raise RouteError(f"{self.template}: parameter {match.group(1)!r} is empty")
            return quote(value, safe="")

        return _PARAM.sub(substitute, self.template)

    def __repr__(self):
        return f"PathPattern({self.template!r})"
