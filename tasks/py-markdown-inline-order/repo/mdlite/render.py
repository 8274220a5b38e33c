"""Blocks to HTML."""
from .blocks import parse_blocks
from .escape import escape_html
from .inline import render_inline


def _render_block(block):
    if block.kind == "heading":
        return f"<h{block.level}>{render_inline(block.lines[0])}</h{block.level}>"
    if block.kind == "paragraph":
        return f"<p>{render_inline(chr(10).join(block.lines))}</p>"
    if block.kind in ("ul", "ol"):
        items = "".join(f"<li>{render_inline(item)}</li>" for item in block.lines)
        return f"<{block.kind}>{items}</{block.kind}>"
    if block.kind == "quote":
        return f"<blockquote><p>{render_inline(chr(10).join(block.lines))}</p></blockquote>"
    if block.kind == "code":
        attr = f' class="language-{escape_html(block.info)}"' if block.info else ""
        body = escape_html("\n".join(block.lines))
        return f"<pre><code{attr}>{body}\n</code></pre>" if block.lines else f"<pre><code{attr}></code></pre>"
    raise ValueError(f"unknown block kind {block.kind!r}")


def render(text):
    """Render a Markdown document to HTML, one block per line."""
    return "\n".join(_render_block(block) for block in parse_blocks(text))
