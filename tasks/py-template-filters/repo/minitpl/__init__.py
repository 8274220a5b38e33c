"""minitpl: a small Jinja-like template engine for e-mails and reports.

Syntax: ``{{ user.name|upper }}`` prints an expression passed through filters,
``{% for item in items %}...{% endfor %}`` and ``{% if cond %}...{% else %}...{% endif %}``
control the output. See ``minitpl.filters`` for the filters.
"""
from .errors import TemplateError
from .template import Template, render

__all__ = ["Template", "TemplateError", "render"]
