"""The compiled template: a tree of nodes that render themselves against a Context."""
from .errors import TemplateError
from .filters import get_filter


def evaluate(expression, context, line=None):
    """The value of ``expression``: its path resolved, then each filter applied in order."""
    value = context.resolve(expression.path)
    for call in expression.filters:
        function = get_filter(call.name)
        if function is None:
            raise TemplateError(f"unknown filter {call.name!r}", line)
        value = function(value)
    return value


class Text:
    def __init__(self, text):
        self.text = text

    def render(self, context, out):
        out.append(self.text)


class Var:
    def __init__(self, expression, line):
        self.expression = expression
        self.line = line

    def render(self, context, out):
        value = evaluate(self.expression, context, self.line)
        out.append("" if value is None else str(value))


class For:
    def __init__(self, target, expression, body, line):
        self.target = target
        self.expression = expression
        self.body = body
        self.line = line

    def render(self, context, out):
        items = evaluate(self.expression, context, self.line) or []
        items = list(items)
        for index, item in enumerate(items):
            context.push({self.target: item, "loop": {"index": index + 1, "first": index == 0,
                                                      "last": index == len(items) - 1}})
            try:
                for node in self.body:
                    node.render(context, out)
            finally:
                context.pop()


class If:
    def __init__(self, expression, body, orelse, line):
        self.expression = expression
        self.body = body
        self.orelse = orelse
        self.line = line

    def render(self, context, out):
        branch = self.body if evaluate(self.expression, context, self.line) else self.orelse
        for node in branch:
            node.render(context, out)
