"""Inline markup inside a block's text."""
import re

from .escape import escape_html

_CODE = re.compile(r"`([^`]+)`")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_EM = re.compile(r"(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])")
_ESCAPABLE = re.compile(r"\\([\\`*_\[\]()#>-])")

# Characters inside code spans and escaped characters are stashed behind placeholders, so the
# emphasis and link rules can never see them. \x00 cannot occur in escaped text.
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")


class _Stash:
    def __init__(self):
        self.items = []

    def put(self, html):
        self.items.append(html)
        return f"\x00{len(self.items) - 1}\x00"

    def restore(self, text):
        return _PLACEHOLDER.sub(lambda m: self.items[int(m.group(1))], text)


def render_inline(text):
    """Render inline Markdown in `text` (one block's worth) to HTML."""
    stash = _Stash()
    text = _ESCAPABLE.sub(lambda m: stash.put(escape_html(m.group(1))), text)
    text = _CODE.sub(lambda m: stash.put(f"<code>{escape_html(m.group(1))}</code>"), text)
    text = escape_html(text)
    text = stash.restore(text)
    text = _LINK.sub(lambda m: f'<a href="{m.group(2)}">{m.group(1)}</a>', text)
    text = _EM.sub(lambda m: f"<em>{m.group(2)}</em>", text)
    text = _STRONG.sub(lambda m: f"<strong>{m.group(1)}</strong>", text)
    return text
