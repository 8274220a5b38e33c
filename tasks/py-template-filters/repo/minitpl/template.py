"""Compiling and rendering templates."""
from .context import Context
from .lexer import tokenize
from .parser import parse


class Template:
    """A compiled template; compile once, render many times."""

    def __init__(self, source):
        self.source = source
        self.nodes = parse(tokenize(source))

    def render(self, data=None):
        context = Context(data or {})
        out = []
        for node in self.nodes:
            node.render(context, out)
        return "".join(out)


def render(source, data=None):
    """Compile ``source`` and render it with ``data`` in one go."""
    return Template(source).render(data)
